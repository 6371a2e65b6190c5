//! The vlt engine protocol: a UCI-like line protocol (normative text: `docs/protocol.md`).
//!
//! Three layers, none of which touches stdio or sockets:
//! - [`Command`] and [`Response`]: parsing and formatting of single lines;
//! - [`Session`]: the state machine (options, the game, busy or idle) turning commands into
//!   [`Effect`]s;
//! - [`Host`]: an engine on a worker thread carrying out effects, writing to a [`Sink`];
//!   [`Server`] ties a session to a host.
//!
//! `vlt engine` runs a [`Server`] over stdin/stdout; the web server can run one per WebSocket.
//!
//! ```
//! use vlt_protocol::{Command, Effect, Response, Session};
//!
//! let mut s = Session::default();
//! let effects = s.handle_line("isready", false);
//! assert!(matches!(&effects[..], [Effect::Reply(Response::ReadyOk)]));
//! let go: Command = "go depth 6 movetime 500".parse().unwrap();
//! assert_eq!(go.to_string(), "go depth 6 movetime 500");
//! ```

pub mod command;
pub mod host;
pub mod line;
pub mod response;
pub mod session;

pub use command::{Command, Go, ParseCommandError};
pub use host::{Host, Server, Sink};
pub use line::read_line;
pub use response::{Info, OptionKind, OptionSpec, ParseResponseError, Response};
pub use session::{Effect, Job, JobKind, Session};

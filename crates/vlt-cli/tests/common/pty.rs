//! The real `vlt` binary in a pseudo-terminal: the pseudo-terminal comes from the `portable-pty`
//! crate and the screen from the `vt100` crate, so nothing needs installing. A reader thread feeds
//! everything the program writes to the screen model; the tests wait on what it shows.

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The screen the program draws on.
pub struct Screen {
    /// The terminal model the reader thread feeds.
    pub parser: Arc<Mutex<vt100::Parser>>,
}

impl Screen {
    /// The text on the screen now.
    pub fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// True while the program has the alternate screen.
    pub fn alternate(&self) -> bool {
        self.parser.lock().unwrap().screen().alternate_screen()
    }

    /// Waits until `pred` holds for the screen, or panics with the screen after `secs`.
    pub fn wait(&self, secs: u64, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let t = self.text();
            if pred(&t) {
                return t;
            }
            assert!(Instant::now() < end, "timed out waiting for {what}; screen:\n{t}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the alternate screen is left (the normal screen shows again), or panics after
    /// `secs`. The reader thread may still be passing the last bytes to the model when the process
    /// has gone, hence the wait.
    pub fn wait_normal(&self, secs: u64) {
        let end = Instant::now() + Duration::from_secs(secs);
        while self.alternate() {
            assert!(Instant::now() < end, "vlt left without restoring the screen");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The real `vlt` running in a pseudo-terminal.
pub struct Vlt {
    /// The process.
    pub child: Box<dyn portable_pty::Child + Send + Sync>,
    /// The terminal's side of the pseudo-terminal (to resize it).
    pub master: Box<dyn portable_pty::MasterPty + Send>,
    /// What the keyboard types.
    pub keys: Box<dyn Write + Send>,
    /// What the program shows.
    pub screen: Screen,
}

impl Vlt {
    /// Types `bytes` (keys, escape sequences, mouse reports).
    pub fn send(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).unwrap();
        self.keys.flush().unwrap();
    }

    /// Waits for the process to end, or panics saying `what` did not end it after `secs`.
    pub fn wait_exit(&mut self, secs: u64, what: &str) -> portable_pty::ExitStatus {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(Instant::now() < end, "vlt did not leave on {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The real `vlt` with `args` and the variables `env` (besides `TERM=xterm-256color`), in a
/// pseudo-terminal of `rows` by `cols`.
pub fn spawn(args: &[impl AsRef<OsStr>], env: &[(&str, &OsStr)], rows: u16, cols: u16) -> Vlt {
    let pair =
        native_pty_system().openpty(PtySize { rows, cols, pixel_width: 0, pixel_height: 0 }).expect("a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_vlt"));
    for a in args {
        cmd.arg(a);
    }
    cmd.env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = pair.slave.spawn_command(cmd).expect("vlt starts");
    drop(pair.slave);
    let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let p2 = Arc::clone(&parser);
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            match p2.lock() {
                Ok(mut p) => p.process(&buf[..n]),
                Err(_) => break,
            }
        }
    });
    let keys = pair.master.take_writer().unwrap();
    Vlt { child, master: pair.master, keys, screen: Screen { parser } }
}

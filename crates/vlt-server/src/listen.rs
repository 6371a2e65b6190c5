//! Accepting connections (hyper-util's server): each is counted against a total and a per-address
//! cap (a WebSocket keeps its count until it closes), must send its request headers within the
//! edge's header timeout (idle keep-alive connections too), and on shutdown gets a bounded grace
//! to finish before the server returns, however stalled its client.

use crate::edge::Edge;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// Open connections: in all, and for each address.
#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_addr: HashMap<IpAddr, usize>,
}

/// One counted connection; the count is given back when it drops.
#[derive(Debug)]
struct Slot {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
}

impl Slot {
    fn take(counts: &Arc<Mutex<Counts>>, ip: IpAddr, edge: &Edge) -> Option<Slot> {
        let mut c = counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mine = c.by_addr.get(&ip).copied().unwrap_or(0);
        if c.total >= edge.max_connections || mine >= edge.max_connections_per_address {
            return None;
        }
        c.total += 1;
        c.by_addr.insert(ip, mine + 1);
        Some(Slot { counts: Arc::clone(counts), ip })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.by_addr.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.by_addr.remove(&self.ip);
            }
        }
    }
}

/// A connection that holds its slot for as long as it lives: through an upgrade to a WebSocket,
/// which takes the stream out of the HTTP connection.
struct Counted {
    io: TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// How long to wait after the listener fails (out of file descriptors) before accepting again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` with the edge's connection bounds until `stop` completes, then lets
/// open requests finish for at most the edge's shutdown grace and returns. Requests see the peer
/// as `ConnectInfo<SocketAddr>`.
///
/// # Errors
/// Never yet: a failing accept is retried; kept for listeners that can fail for good.
pub async fn serve_until(
    listener: TcpListener,
    app: Router,
    edge: &Edge,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    // hyper's own HTTP/1 server: its header timer runs from the connection's first moment (the
    // protocol-sniffing server of hyper-util waits for a first byte without any bound).
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(edge.header_timeout);
    // Each connection's task holds a receiver: the sender sees them all gone when every HTTP
    // connection has ended (an upgraded WebSocket no longer holds one).
    let (stopping, stop_rx) = tokio::sync::watch::channel(false);
    let counts = Arc::new(Mutex::new(Counts::default()));
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Some(slot) = Slot::take(&counts, peer.ip(), edge) else {
            // Over a cap: closed at once, before anything is read.
            drop(stream);
            continue;
        };
        // Small messages (moves, updates) go out at once.
        let _ = stream.set_nodelay(true);
        let app = app.clone().map_request(move |req: hyper::Request<hyper::body::Incoming>| {
            let mut req = req.map(axum::body::Body::new);
            req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            req
        });
        let io = TokioIo::new(Counted { io: stream, _slot: slot });
        let conn = builder.serve_connection(io, TowerToHyperService::new(app)).with_upgrades();
        let mut stop_rx = stop_rx.clone();
        tokio::spawn(async move {
            tokio::pin!(conn);
            // A connection's end (closed, timed out, malformed) concerns only that connection.
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stop_rx.wait_for(|s| *s) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    drop(listener);
    drop(stop_rx);
    let _ = stopping.send(true);
    // Connections mid-request finish within the grace; stalled ones are left to be dropped with
    // the runtime.
    let _ = tokio::time::timeout(edge.shutdown_grace, stopping.closed()).await;
    Ok(())
}

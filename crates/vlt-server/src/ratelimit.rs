//! Rate limits per client address: how many games, seeks or account requests one address may make
//! per minute, with a burst. New games are counted by each server in its memory (GCRA from the
//! `governor` crate, [`limit`]), so as to cost their hot path nothing; seeks and account requests
//! are counted in the store (the same GCRA, `store::seeks::RateStep`, [`limit_shared`]), so the
//! rate holds for an address whichever servers sharing the database its requests reach.

use crate::error::ApiError;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

/// How many requests one address may make: `per_minute` on average, `burst` at once. Zero per
/// minute means no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests a minute, on average; 0 for no limit.
    pub per_minute: u32,
    /// Requests allowed at once, after a quiet time.
    pub burst: u32,
}

impl Rate {
    /// No limit.
    pub const OFF: Rate = Rate { per_minute: 0, burst: 0 };
}

/// Entries kept before the ones whose quota has refilled are dropped.
const PRUNE_AT: usize = 10_000;

/// A limit on one kind of request, keyed by client address.
#[derive(Debug)]
pub struct Limiter {
    inner: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// What is limited, for the refusal: `new games`, `seeks`, `accounts`.
    what: &'static str,
}

impl Limiter {
    /// A limiter of `rate` for `what`.
    #[must_use]
    pub fn new(rate: Rate, what: &'static str) -> Arc<Limiter> {
        let inner = NonZeroU32::new(rate.per_minute).map(|n| {
            let burst = NonZeroU32::new(rate.burst).unwrap_or(NonZeroU32::MIN);
            DefaultKeyedRateLimiter::keyed(Quota::per_minute(n).allow_burst(burst))
        });
        Arc::new(Limiter { inner, what })
    }

    /// Counts one request from `ip`; refused with 429 when its quota is spent.
    ///
    /// # Errors
    /// [`ApiError::TooMany`] saying when to try again.
    pub fn check(&self, ip: IpAddr) -> Result<(), (ApiError, u64)> {
        let Some(l) = &self.inner else { return Ok(()) };
        let r = l.check_key(&ip);
        if l.len() > PRUNE_AT {
            l.retain_recent();
        }
        r.map_err(|not_until| {
            let wait = not_until
                .wait_time_from(governor::clock::Clock::now(&governor::clock::DefaultClock::default()));
            let secs = wait.as_secs() + 1;
            (
                ApiError::TooMany(format!("too many {} from your address; try again in {secs} s", self.what)),
                secs,
            )
        })
    }
}

/// The middleware that applies a limiter to a route:
/// `post(handler).layer(axum::middleware::from_fn_with_state(limiter, ratelimit::limit))`.
pub async fn limit(State(l): State<Arc<Limiter>>, req: Request, next: Next) -> Response {
    match l.check(client_ip(&req)) {
        Ok(()) => next.run(req).await,
        Err((e, secs)) => {
            let mut r = e.into_response();
            r.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.into());
            r
        }
    }
}

/// A limit on one kind of request, keyed by client address, counted in the store.
#[derive(Debug)]
pub struct SharedLimiter {
    hub: Arc<crate::Hub>,
    rate: Rate,
    /// What is limited, for the refusal and as the stored key's prefix.
    what: &'static str,
}

impl SharedLimiter {
    /// A limiter of `rate` for `what`, counted in `hub`'s store.
    #[must_use]
    pub fn new(hub: Arc<crate::Hub>, rate: Rate, what: &'static str) -> Arc<SharedLimiter> {
        Arc::new(SharedLimiter { hub, rate, what })
    }

    /// Counts one request from `ip`; refused with 429 when its quota is spent.
    ///
    /// # Errors
    /// [`ApiError::TooMany`] saying when to try again, or the store's error.
    pub async fn check(&self, ip: IpAddr) -> Result<(), (ApiError, Option<u64>)> {
        if self.rate.per_minute == 0 {
            return Ok(());
        }
        let step = crate::store::seeks::RateStep {
            interval_ms: 60_000 / i64::from(self.rate.per_minute),
            burst: i64::from(self.rate.burst.max(1)),
        };
        let key = format!("{}:{ip}", self.what);
        match self.hub.db(move |s| s.rate_take(&key, step)).await {
            Ok(None) => Ok(()),
            Ok(Some(wait_ms)) => {
                let secs = u64::try_from(wait_ms / 1000).unwrap_or(0) + 1;
                let e = format!("too many {} from your address; try again in {secs} s", self.what);
                Err((ApiError::TooMany(e), Some(secs)))
            }
            Err(e) => Err((e, None)),
        }
    }
}

/// The middleware that applies a shared limiter to a route, as [`limit`] does a limiter.
pub async fn limit_shared(State(l): State<Arc<SharedLimiter>>, req: Request, next: Next) -> Response {
    match l.check(client_ip(&req)).await {
        Ok(()) => next.run(req).await,
        Err((e, secs)) => {
            let mut r = e.into_response();
            if let Some(secs) = secs {
                r.headers_mut().insert(axum::http::header::RETRY_AFTER, secs.into());
            }
            r
        }
    }
}

/// The client's address: the connection's peer, or, when the peer is a reverse proxy on this
/// machine, the address it appended to `X-Forwarded-For` (the last one: earlier ones are the
/// client's own say). Without connection information (a router served by other means), one shared
/// key.
#[must_use]
pub fn client_ip(req: &Request) -> IpAddr {
    let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>() else {
        return IpAddr::V4(Ipv4Addr::UNSPECIFIED);
    };
    let peer = peer.ip();
    if peer.is_loopback() {
        let forwarded = req
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .next_back();
        if let Some(ip) = forwarded {
            return ip;
        }
    }
    peer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_refused_per_address() {
        let l = Limiter::new(Rate { per_minute: 6, burst: 3 }, "new games");
        let (a, b): (IpAddr, IpAddr) = ("192.0.2.1".parse().unwrap(), "192.0.2.2".parse().unwrap());
        for _ in 0..3 {
            assert!(l.check(a).is_ok());
        }
        let (e, secs) = l.check(a).unwrap_err();
        assert_eq!(e.status(), axum::http::StatusCode::TOO_MANY_REQUESTS);
        assert!((1..=11).contains(&secs), "{secs}");
        assert!(e.to_string().starts_with("too many new games"), "{e}");
        assert!(l.check(b).is_ok(), "another address has its own quota");
        let off = Limiter::new(Rate::OFF, "x");
        assert!((0..1000).all(|_| off.check(a).is_ok()));
    }
}

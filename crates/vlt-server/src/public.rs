//! The address browsers reach the server at (`--public-url`), and which `Host` headers and
//! `Origin`s it answers. A request naming another host is refused (DNS rebinding: a hostile name
//! pointed at this server must not reach the API), and so is a WebSocket or a state-changing
//! request sent from a page of another origin.

use std::fmt;
use std::str::FromStr;

/// A public address: `http` or `https`, a host, and a port when it is not the scheme's default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    https: bool,
    host: String,
    port: Option<u16>,
}

/// Why a public URL was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("public URL {url:?}: {why}")]
pub struct PublicUrlError {
    url: String,
    why: &'static str,
}

impl FromStr for PublicUrl {
    type Err = PublicUrlError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why| PublicUrlError { url: s.chars().take(200).collect(), why };
        let uri: axum::http::Uri = s.parse().map_err(|_| err("not a URL"))?;
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(err("the scheme must be http or https")),
        };
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return Err(err("the server is served at the root: no path or query"));
        }
        let auth = uri.authority().ok_or_else(|| err("no host"))?;
        if auth.as_str().contains('@') {
            return Err(err("no user name or password"));
        }
        let host = auth.host().to_ascii_lowercase();
        if host.is_empty() {
            return Err(err("no host"));
        }
        let default = if https { 443 } else { 80 };
        let port = auth.port_u16().filter(|&p| p != default);
        Ok(PublicUrl { https, host, port })
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", if self.https { "https" } else { "http" }, self.authority())
    }
}

impl PublicUrl {
    /// The URL for a server on this machine at `port`: `http://127.0.0.1:PORT`.
    #[must_use]
    pub fn loopback(port: u16) -> PublicUrl {
        PublicUrl { https: false, host: "127.0.0.1".into(), port: (port != 80).then_some(port) }
    }

    /// `host` or `host:port` as a `Host` header names it.
    #[must_use]
    pub fn authority(&self) -> String {
        match self.port {
            Some(p) => format!("{}:{p}", self.host),
            None => self.host.clone(),
        }
    }

    /// Whether the `Host` header `host` names this address.
    fn is_host(&self, host: &str) -> bool {
        split_host(host).is_some_and(|(h, p)| {
            h.eq_ignore_ascii_case(&self.host) && p.filter(|&p| p != self.default_port()) == self.port
        })
    }

    fn default_port(&self) -> u16 {
        if self.https { 443 } else { 80 }
    }
}

/// Which hosts the server answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Hosts {
    /// No public address configured: the server answers `localhost` and IP addresses on any port
    /// (a DNS-rebinding attack needs a host name it controls, so an address is safe), which is what
    /// a server on one's own machine or home network is reached by. Pages are same-origin checked.
    #[default]
    Local,
    /// Only this address.
    Public(PublicUrl),
}

impl Hosts {
    /// Whether a request with this `Host` header is answered.
    #[must_use]
    pub fn allows_host(&self, host: &str) -> bool {
        match self {
            Hosts::Public(url) => url.is_host(host),
            Hosts::Local => split_host(host).is_some_and(|(h, _)| is_local_name(h)),
        }
    }

    /// Whether a page of `origin` may open a WebSocket or change state, on a request for `host`
    /// (already allowed).
    #[must_use]
    pub fn allows_origin(&self, origin: &str, host: &str) -> bool {
        match self {
            Hosts::Public(url) => origin.eq_ignore_ascii_case(&url.to_string()),
            // Same origin: the page was served by this server under the name it is asking now.
            Hosts::Local => ["http://", "https://"]
                .iter()
                .any(|s| origin.strip_prefix(s).is_some_and(|rest| rest.eq_ignore_ascii_case(host))),
        }
    }

    /// The public URL, if one is configured.
    #[must_use]
    pub fn public_url(&self) -> Option<&PublicUrl> {
        match self {
            Hosts::Public(u) => Some(u),
            Hosts::Local => None,
        }
    }
}

/// `localhost`, or an IP address literal.
fn is_local_name(h: &str) -> bool {
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::Ipv4Addr>().is_ok()
        || h.strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|a| a.parse::<std::net::Ipv6Addr>().is_ok())
}

/// A `Host` header's host and port (`[::1]:8080` keeps its brackets); `None` when malformed.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (h, port) = if host.starts_with('[') {
        let end = host.find(']')? + 1;
        let rest = &host[end..];
        (&host[..end], if rest.is_empty() { None } else { Some(rest.strip_prefix(':')?) })
    } else {
        match host.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host, None),
        }
    };
    if h.is_empty() || !h.bytes().all(|b| b.is_ascii_alphanumeric() || b".-[]:".contains(&b)) {
        return None;
    }
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    Some((h, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls_parse_and_name_their_hosts() {
        let u: PublicUrl = "https://Play.Example.org/".parse().unwrap();
        assert_eq!(u.to_string(), "https://play.example.org");
        assert!(u.is_host("play.example.org") && u.is_host("PLAY.example.org:443"));
        assert!(!u.is_host("play.example.org:8443") && !u.is_host("evil.example") && !u.is_host(""));
        let u: PublicUrl = "http://example.org:8080".parse().unwrap();
        assert_eq!(u.authority(), "example.org:8080");
        assert!(u.is_host("example.org:8080") && !u.is_host("example.org"));
        for bad in
            ["ftp://x", "example.org", "https://x/app", "https://x/?q=1", "https://u:p@x", "", "http://"]
        {
            assert!(bad.parse::<PublicUrl>().is_err(), "{bad}");
        }
        assert_eq!(PublicUrl::loopback(8080).to_string(), "http://127.0.0.1:8080");
    }

    #[test]
    fn without_a_public_url_only_local_names_and_addresses_are_answered() {
        let h = Hosts::Local;
        for ok in ["localhost", "localhost:8080", "127.0.0.1:9", "192.168.1.5:8080", "[::1]:8080", "[::1]"] {
            assert!(h.allows_host(ok), "{ok}");
        }
        for bad in ["evil.example", "evil.example:8080", "127.0.0.1.nip.io", "", "[::1", "a b", "localhost:x"]
        {
            assert!(!h.allows_host(bad), "{bad}");
        }
        assert!(h.allows_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(!h.allows_origin("http://evil.example", "127.0.0.1:8080"));
        assert!(!h.allows_origin("null", "127.0.0.1:8080"));
        let p = Hosts::Public("https://play.example.org".parse().unwrap());
        assert!(p.allows_origin("https://play.example.org", "play.example.org"));
        assert!(!p.allows_origin("http://play.example.org", "play.example.org"));
        assert!(!p.allows_host("127.0.0.1:8080"));
    }
}

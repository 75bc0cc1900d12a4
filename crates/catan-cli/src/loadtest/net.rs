//! Loopback addressing: parsing the target URL, refusing anything that is not
//! loopback, and opening TCP connections from a chosen `127.0.0.x` source.
//!
//! One source address runs out of ephemeral ports near 28,000 connections,
//! so sockets are spread round-robin over the `--source-ips` list; the
//! socket is bound to its source before it connects.

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::net::{TcpSocket, TcpStream};

/// Parses `http://HOST:PORT[/...]` into a socket address; `localhost` is
/// 127.0.0.1. Only loopback targets are accepted: this tool must never
/// load anything but the local machine.
pub fn parse_target(url: &str) -> Result<SocketAddr, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("{url}: the URL must start with http://"))?;
    let hostport = rest.split('/').next().unwrap_or(rest);
    let hostport = hostport.replacen("localhost", "127.0.0.1", 1);
    let addr: SocketAddr = hostport
        .parse()
        .map_err(|_| format!("{url}: expected http://IP:PORT (e.g. http://127.0.0.1:8080)"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "{url}: only loopback addresses (127.0.0.0/8, ::1) may be targeted"
        ));
    }
    Ok(addr)
}

/// Checks that every source address is loopback.
pub fn check_sources(ips: &[IpAddr]) -> Result<(), String> {
    match ips.iter().find(|ip| !ip.is_loopback()) {
        Some(ip) => Err(format!("source address {ip} is not a loopback address")),
        None => Ok(()),
    }
}

/// Hands out source addresses round-robin.
#[derive(Debug)]
pub struct Sources {
    ips: Vec<IpAddr>,
    next: AtomicUsize,
}

impl Sources {
    /// Round-robin over `ips`; an empty list lets the kernel choose.
    pub fn new(ips: Vec<IpAddr>) -> Sources {
        Sources {
            ips,
            next: AtomicUsize::new(0),
        }
    }

    /// The next source address, if any were given.
    pub fn pick(&self) -> Option<IpAddr> {
        if self.ips.is_empty() {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.ips.len();
        self.ips.get(i).copied()
    }
}

/// Opens a TCP connection to `server`, bound first to `source` if given.
pub async fn connect(server: SocketAddr, source: Option<IpAddr>) -> io::Result<TcpStream> {
    let socket = match server {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    if let Some(ip) = source {
        socket.bind(SocketAddr::new(ip, 0))?;
    }
    let stream = socket.connect(server).await?;
    // Small JSON frames: send them at once rather than waiting to coalesce.
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// `127.0.0.1` .. `127.0.0.n`, for `--source-count`.
pub fn loopback_range(n: usize) -> Vec<IpAddr> {
    (1..=n.clamp(1, 254))
        .map(|i| IpAddr::V4(Ipv4Addr::new(127, 0, 0, i as u8)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_targets_parse() {
        assert_eq!(
            parse_target("http://127.0.0.1:8080").unwrap(),
            "127.0.0.1:8080".parse().unwrap()
        );
        assert_eq!(parse_target("http://localhost:9000/").unwrap().port(), 9000);
        assert!(parse_target("http://10.0.0.1:8080").is_err());
        assert!(parse_target("https://127.0.0.1:8080").is_err());
        assert!(parse_target("http://example.com:80").is_err());
        assert!(check_sources(&["127.0.0.2".parse().unwrap()]).is_ok());
        assert!(check_sources(&["192.168.1.2".parse().unwrap()]).is_err());
    }

    #[test]
    fn sources_round_robin() {
        let s = Sources::new(loopback_range(3));
        let picks: Vec<_> = (0..4).map(|_| s.pick().unwrap().to_string()).collect();
        assert_eq!(picks, ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.1"]);
        assert_eq!(Sources::new(Vec::new()).pick(), None);
    }
}

//! One WebSocket client: connect from a chosen source address, say hello,
//! and forward every server message, parsed, to the game's driver.
//!
//! The reading half runs in its own task so that the driver never waits on
//! a socket; the driver keeps the writing half to send actions.

use super::metrics::Metrics;
use super::net;
use super::proto;
use catan_protocol::{CloseReason, ServerHead};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio::sync::mpsc::UnboundedSender;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use uuid::Uuid;

/// Initial read buffer per socket (it grows for larger messages).
const READ_BUFFER: usize = 8 * 1024;
/// Longest a connection and its WebSocket handshake may take, as a
/// browser gives up on a socket that never opens: a server out of file
/// descriptors leaves a connection in its accept queue unanswered, and the
/// client waited for it until the run ended.
const OPEN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The writing half of a client socket.
pub type Sink = SplitSink<WebSocketStream<TcpStream>, Message>;

/// What a client socket tells its game's driver.
pub enum Event {
    /// A message arrived.
    Msg {
        /// Which client of the game.
        client: usize,
        /// Which connection of that client (a reconnect is a new epoch).
        epoch: u32,
        /// The message.
        msg: ServerHead,
        /// When it was read.
        at: Instant,
    },
    /// The socket closed or failed.
    Closed {
        /// Which client.
        client: usize,
        /// Which connection.
        epoch: u32,
        /// Where the lobby moved, when a cluster node closed the socket
        /// with 4010 naming it (docs/CLUSTER.md).
        moved_to: Option<SocketAddr>,
    },
    /// A reconnect succeeded.
    Connected {
        /// Which client.
        client: usize,
        /// Which connection.
        epoch: u32,
        /// The node it connected to (it may have asked where to go).
        server: SocketAddr,
        /// Its writing half.
        sink: Sink,
        /// When the attempt began (before asking where the lobby lives).
        started: Instant,
    },
    /// A reconnect failed.
    ConnectFailed {
        /// Which client.
        client: usize,
        /// Which connection.
        epoch: u32,
        /// Why.
        error: String,
    },
}

/// Where and as whom a client connects.
#[derive(Clone, Debug)]
pub struct Target {
    /// The server.
    pub server: SocketAddr,
    /// The lobby.
    pub lobby: Uuid,
    /// The seat token; none for a spectator.
    pub token: Option<String>,
}

/// Opens a socket, says hello (on a reconnect with the last version the
/// client had, `since`) and starts forwarding its messages to `tx`.
pub async fn open(
    target: &Target,
    since: Option<u64>,
    source: Option<IpAddr>,
    client: usize,
    epoch: u32,
    tx: UnboundedSender<Event>,
    metrics: Arc<Metrics>,
) -> Result<Sink, String> {
    let opening = async {
        let stream = net::connect(target.server, source)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let url = format!("ws://{}/api/lobbies/{}/ws", target.server, target.lobby);
        // tungstenite's default 128 KiB read buffer per socket would make
        // tens of thousands of clients cost gigabytes; server messages are
        // a few KiB.
        let config = WebSocketConfig::default()
            .read_buffer_size(READ_BUFFER)
            .write_buffer_size(0);
        tokio_tungstenite::client_async_with_config(url, stream, Some(config))
            .await
            .map_err(|e| format!("WebSocket handshake: {e}"))
    };
    let (ws, _) = tokio::time::timeout(OPEN_TIMEOUT, opening)
        .await
        .map_err(|_| format!("no WebSocket within {OPEN_TIMEOUT:?}"))??;
    let (mut sink, stream) = ws.split();
    sink.send(Message::text(proto::hello(target.token.as_deref(), since)))
        .await
        .map_err(|e| format!("sending hello: {e}"))?;
    metrics.socket_opened();
    tokio::spawn(read(stream, client, epoch, tx, metrics));
    Ok(sink)
}

async fn read(
    mut stream: SplitStream<WebSocketStream<TcpStream>>,
    client: usize,
    epoch: u32,
    tx: UnboundedSender<Event>,
    metrics: Arc<Metrics>,
) {
    // Pings are answered by tungstenite itself as long as we keep reading.
    let mut moved_to = None;
    while let Some(frame) = stream.next().await {
        let text = match frame {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(Some(f))) if u16::from(f.code) == CloseReason::MOVED.code => {
                moved_to = f
                    .reason
                    .as_str()
                    .strip_prefix("moved to ")
                    .and_then(|u| net::parse_target(u).ok());
                break;
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        let at = Instant::now();
        match proto::parse(text.as_str()) {
            Ok(msg) => {
                if tx
                    .send(Event::Msg {
                        client,
                        epoch,
                        msg,
                        at,
                    })
                    .is_err()
                {
                    // The driver is gone: the run is over.
                    break;
                }
            }
            Err(_) => metrics.error("bad_server_message"),
        }
    }
    metrics.socket_closed();
    // The driver may have finished already; then nobody needs to know.
    let _ = tx.send(Event::Closed {
        client,
        epoch,
        moved_to,
    });
}

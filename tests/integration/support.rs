//! Shared helpers of the integration tests: a tiny loopback HTTP/1.1 server.
//!
//! ```ignore
//! let server = TestServer::start([
//!     ("/agb", Route::html("<p>AGB</p>")),
//!     ("/old", Route::redirect(301, "/agb")),
//! ]);
//! let url = server.url("/old"); // http://127.0.0.1:PORT/old
//! ```
//! The server binds `127.0.0.1:0`, answers every connection in its own thread (one request per
//! connection, `Connection: close`), answers unknown paths with 404, and stops when dropped:
//! the accept loop polls a stop flag every few milliseconds and delays are cut short, so a drop
//! takes at most a few milliseconds.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the server answers one path.
#[derive(Debug, Clone)]
pub struct Route {
    /// The status code.
    pub status: u16,
    /// Extra response headers (`Content-Length` or `Transfer-Encoding` and `Connection` are
    /// added by the server).
    pub headers: Vec<(String, String)>,
    /// The body, sent as is (compress it yourself and add `Content-Encoding` if needed).
    pub body: Vec<u8>,
    /// Wait this long before sending anything.
    pub delay: Duration,
    /// After the headers and the first half of the body, wait this long before the rest.
    pub body_delay: Duration,
    /// Send the body with chunked transfer encoding and no `Content-Length`.
    pub chunked: bool,
}

impl Route {
    /// A response with `status`, no headers and `body`.
    pub fn new(status: u16, body: impl Into<Vec<u8>>) -> Route {
        Route {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
            body_delay: Duration::ZERO,
            chunked: false,
        }
    }

    /// `200 OK`, `Content-Type: text/html; charset=utf-8`.
    pub fn html(body: impl Into<Vec<u8>>) -> Route {
        Route::new(200, body).content_type("text/html; charset=utf-8")
    }

    /// An empty response with `status`.
    pub fn status(status: u16) -> Route {
        Route::new(status, Vec::new())
    }

    /// A redirect with `status` (301, 302, 303, 307, 308) to `location` (absolute or
    /// relative).
    pub fn redirect(status: u16, location: &str) -> Route {
        Route::status(status).header("Location", location)
    }

    /// Adds a response header.
    pub fn header(mut self, name: &str, value: &str) -> Route {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Sets `Content-Type` (replacing an earlier one).
    pub fn content_type(mut self, value: &str) -> Route {
        self.headers
            .retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
        self.header("Content-Type", value)
    }

    /// Waits `delay` before answering.
    pub fn delay(mut self, delay: Duration) -> Route {
        self.delay = delay;
        self
    }

    /// Stalls for `delay` in the middle of the body.
    pub fn body_delay(mut self, delay: Duration) -> Route {
        self.body_delay = delay;
        self
    }

    /// Uses chunked transfer encoding (no `Content-Length`).
    pub fn chunked(mut self) -> Route {
        self.chunked = true;
        self
    }
}

/// One request the server received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// `GET`, `HEAD` …
    pub method: String,
    /// The request target, e.g. `/agb?x=1`.
    pub path: String,
    /// Header names in lower case, with their values.
    pub headers: Vec<(String, String)>,
}

impl RecordedRequest {
    /// The first value of a header (name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

struct Shared {
    routes: Mutex<HashMap<String, Route>>,
    stop: AtomicBool,
    requests: Mutex<Vec<RecordedRequest>>,
    /// Requests being answered right now, and the most there ever were at once.
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

/// A loopback HTTP/1.1 server on `127.0.0.1`, stopped when dropped.
pub struct TestServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server answering `routes` (path → route; the path may include a query).
    pub fn start<'a>(routes: impl IntoIterator<Item = (&'a str, Route)>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        let addr = listener.local_addr().expect("local address");
        let shared = Arc::new(Shared {
            routes: Mutex::new(routes.into_iter().map(|(p, r)| (p.to_owned(), r)).collect()),
            stop: AtomicBool::new(false),
            requests: Mutex::new(Vec::new()),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
        });
        let accept_shared = Arc::clone(&shared);
        let accept = std::thread::Builder::new()
            .name(format!("test-server-{}", addr.port()))
            .spawn(move || accept_loop(listener, accept_shared))
            .expect("spawn accept thread");
        TestServer {
            addr,
            shared,
            accept: Some(accept),
        }
    }

    /// Adds (or replaces) routes, e.g. pages that must name the server's own port.
    pub fn set_routes<'a>(&self, routes: impl IntoIterator<Item = (&'a str, Route)>) {
        if let Ok(mut table) = self.shared.routes.lock() {
            table.extend(routes.into_iter().map(|(p, r)| (p.to_owned(), r)));
        }
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Every request received so far, in order of arrival.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared
            .requests
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default()
    }

    /// The most requests the server was answering at one time.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// How many requests asked for `path` (exactly, including any query).
    pub fn hits(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path == path).count()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(handle) = self.accept.take() {
            let _ = handle.join();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let shared = Arc::clone(&shared);
                let _ = std::thread::Builder::new()
                    .name("test-server-conn".into())
                    .spawn(move || {
                        let _ = handle(stream, &shared);
                    });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Sleeps for `d` unless the server stops first; returns false if it stopped.
fn pause(d: Duration, shared: &Shared) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if shared.stop.load(Ordering::SeqCst) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10).min(end - Instant::now()));
    }
    true
}

fn handle(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or("/").to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            break;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    if let Ok(mut requests) = shared.requests.lock() {
        requests.push(RecordedRequest {
            method: method.clone(),
            path: path.clone(),
            headers,
        });
    }
    let without_query = path.split('?').next().unwrap_or_default();
    let route = shared
        .routes
        .lock()
        .ok()
        .and_then(|routes| {
            routes
                .get(&path)
                .or_else(|| routes.get(without_query))
                .cloned()
        })
        .unwrap_or_else(|| {
            Route::new(404, "<html><body>not found</body></html>").content_type("text/html")
        });
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let result = if pause(route.delay, shared) {
        write_response(stream, &route, method == "HEAD", shared)
    } else {
        Ok(())
    };
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    result
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

fn write_response(
    mut stream: TcpStream,
    route: &Route,
    head_only: bool,
    shared: &Shared,
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", route.status, reason(route.status));
    for (name, value) in &route.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if route.chunked {
        head.push_str("Transfer-Encoding: chunked\r\n");
    } else {
        head.push_str(&format!("Content-Length: {}\r\n", route.body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes())?;
    if head_only {
        return stream.flush();
    }
    let (first, second) = route.body.split_at(route.body.len() / 2);
    write_body(&mut stream, first, route.chunked)?;
    stream.flush()?;
    if !route.body_delay.is_zero() && !pause(route.body_delay, shared) {
        return Ok(());
    }
    write_body(&mut stream, second, route.chunked)?;
    if route.chunked {
        stream.write_all(b"0\r\n\r\n")?;
    }
    stream.flush()
}

fn write_body(stream: &mut TcpStream, body: &[u8], chunked: bool) -> std::io::Result<()> {
    if !chunked {
        return stream.write_all(body);
    }
    for chunk in body.chunks(16 * 1024) {
        stream.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())?;
        stream.write_all(chunk)?;
        stream.write_all(b"\r\n")?;
    }
    Ok(())
}

/// Gzip-compresses `bytes` (for `Content-Encoding: gzip` routes and `.html.gz` fixtures).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use flate2::{Compression, write::GzEncoder};
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).expect("gzip into memory");
    encoder.finish().expect("gzip into memory")
}

/// A port on 127.0.0.1 that nothing listens on (bound, then released).
pub fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}

//! One request per connection (`Connection: close`), for a test that cares about answers, not
//! speed. Bodies are read whole (Content-Length, chunked, or to the end of the stream).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use super::json::Json;

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Result<Json, String> {
        Json::parse(&self.body)
    }

    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// A credential for a request.
#[derive(Clone, Copy)]
pub enum Auth<'a> {
    None,
    Key(&'a str),
    /// `name=value` of the session cookie; sent with an `Origin` (cookie writes need one).
    Cookie(&'a str),
}

const TIMEOUT: Duration = Duration::from_secs(60);

pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    auth: Auth<'_>,
    body: Option<&str>,
) -> Result<Reply, String> {
    exchange(addr, method, path, auth, body).map_err(|e| format!("{method} {path}: {e}"))
}

/// [`request`] that must succeed with a JSON answer.
pub fn json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    auth: Auth<'_>,
    body: Option<&str>,
) -> Result<Json, String> {
    let reply = request(addr, method, path, auth, body)?;
    if !reply.ok() {
        return Err(format!(
            "{method} {path}: {} {}{}",
            reply.status,
            reply.body.chars().take(600).collect::<String>(),
            body.map_or(String::new(), |b| format!(
                "\n  (sent {})",
                b.chars().take(600).collect::<String>()
            ))
        ));
    }
    reply
        .json()
        .map_err(|e| format!("{method} {path}: {e}: {}", reply.body))
}

fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    auth: Auth<'_>,
    body: Option<&str>,
) -> std::io::Result<Reply> {
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n"
    );
    match auth {
        Auth::None => {}
        Auth::Key(key) => head.push_str(&format!("X-API-Key: {key}\r\n")),
        Auth::Cookie(cookie) => {
            head.push_str(&format!("Cookie: {cookie}\r\nOrigin: http://{addr}\r\n"));
        }
    }
    match body {
        Some(body) => head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )),
        None if method == "GET" => head.push_str("\r\n"),
        None => head.push_str("Content-Length: 0\r\n\r\n"),
    }
    let mut writer = stream.try_clone()?;
    writer.write_all(head.as_bytes())?;
    read_reply(BufReader::new(stream), method)
}

fn read_reply(mut reader: BufReader<TcpStream>, method: &str) -> std::io::Result<Reply> {
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| invalid("no status line"))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(invalid("connection closed in the headers"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let find = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v): &(String, String)| v.clone())
    };
    let mut raw = Vec::new();
    if find("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| invalid("bad chunk size"))?;
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size];
            reader.read_exact(&mut chunk)?;
            raw.extend_from_slice(&chunk);
            line.clear();
            reader.read_line(&mut line)?;
        }
    } else if let Some(length) = find("content-length").and_then(|v| v.parse::<usize>().ok()) {
        raw.resize(length, 0);
        reader.read_exact(&mut raw)?;
    } else if method != "HEAD" && status != 204 && status != 304 {
        reader.read_to_end(&mut raw)?;
    }
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&raw).into_owned(),
    })
}

/// A POST of `body` as `content_type` with an API key (an import file).
pub fn request_typed(
    addr: SocketAddr,
    path: &str,
    key: &str,
    body: &str,
    content_type: &str,
) -> Result<Reply, String> {
    let send = || -> std::io::Result<Reply> {
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
        stream.set_read_timeout(Some(TIMEOUT))?;
        stream.set_write_timeout(Some(TIMEOUT))?;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n\
             X-API-Key: {key}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let mut writer = stream.try_clone()?;
        writer.write_all(head.as_bytes())?;
        writer.write_all(body.as_bytes())?;
        read_reply(BufReader::new(stream), "POST")
    };
    send().map_err(|e| format!("POST {path}: {e}"))
}

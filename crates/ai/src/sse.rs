//! A server-sent-events decoder: bytes in, the `data` of each complete event out.
//!
//! Only what chat-completions streams use: `data:` lines (several are joined with `\n`), a blank
//! line ends an event, `:` comments and other fields are skipped, `\n` or `\r\n` line ends.

/// Lines longer than this are a broken or hostile stream, not a provider answer.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of the line being received.
    line: Vec<u8>,
    /// `data` lines of the event being received.
    data: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseError {
    LineTooLong,
    NotUtf8,
}

impl SseDecoder {
    /// Feeds bytes; returns the data of every event they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<String>, SseError> {
        let mut events = Vec::new();
        for &b in bytes {
            if b == b'\n' {
                let mut line = std::mem::take(&mut self.line);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                let line = String::from_utf8(line).map_err(|_| SseError::NotUtf8)?;
                if let Some(data) = self.line_done(&line) {
                    events.push(data);
                }
            } else {
                if self.line.len() >= MAX_LINE_BYTES {
                    return Err(SseError::LineTooLong);
                }
                self.line.push(b);
            }
        }
        Ok(events)
    }

    /// The stream ended: an event still being received counts (some servers omit the last
    /// blank line).
    pub fn finish(&mut self) -> Result<Option<String>, SseError> {
        let line =
            String::from_utf8(std::mem::take(&mut self.line)).map_err(|_| SseError::NotUtf8)?;
        let line = line.strip_suffix('\r').unwrap_or(&line);
        if let Some(data) = self.line_done(line) {
            return Ok(Some(data));
        }
        Ok(self.line_done(""))
    }

    fn line_done(&mut self, line: &str) -> Option<String> {
        if line.is_empty() {
            if self.data.is_empty() {
                return None;
            }
            return Some(std::mem::take(&mut self.data).join("\n"));
        }
        if let Some(value) = line.strip_prefix("data:") {
            self.data
                .push(value.strip_prefix(' ').unwrap_or(value).to_owned());
        } else if line == "data" {
            self.data.push(String::new());
        }
        // `event:`, `id:`, `retry:` and `:` comments carry nothing a completion needs.
        None
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn events_split_anywhere_are_reassembled() {
        let stream =
            b"data: {\"a\":1}\n\ndata: {\"b\":2}\r\n\r\n: keep-alive\n\nevent: x\ndata: [DONE]\n\n";
        for split in 0..stream.len() {
            let mut d = SseDecoder::default();
            let (left, right) = stream.split_at(split);
            let mut events = d.push(left).unwrap();
            events.extend(d.push(right).unwrap());
            assert_eq!(
                events,
                ["{\"a\":1}", "{\"b\":2}", "[DONE]"],
                "split at {split}"
            );
            assert_eq!(d.finish().unwrap(), None);
        }
    }

    #[test]
    fn multi_line_data_and_a_missing_final_blank_line() {
        let mut d = SseDecoder::default();
        assert_eq!(
            d.push(b"data:one\ndata: two\n\ndata: last").unwrap(),
            ["one\ntwo"]
        );
        assert_eq!(d.finish().unwrap().as_deref(), Some("last"));
        let mut d = SseDecoder::default();
        assert!(d.push(b"data: last\n").unwrap().is_empty());
        assert_eq!(d.finish().unwrap().as_deref(), Some("last"));
    }

    #[test]
    fn utf8_split_across_chunks_survives_and_garbage_is_refused() {
        let text = "data: é\n\n".as_bytes();
        let mut d = SseDecoder::default();
        let mut events = d.push(&text[..7]).unwrap();
        events.extend(d.push(&text[7..]).unwrap());
        assert_eq!(events, ["é"]);
        assert_eq!(
            SseDecoder::default().push(b"data: \xff\n\n"),
            Err(SseError::NotUtf8)
        );
    }
}

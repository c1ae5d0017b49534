//! The input of `tcx extract <FILE|URL|->`: a URL (fetched with [`Fetcher`]), a file
//! (optionally gzip-compressed) or standard input, loaded into a [`FetchedPage`].

use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use thiserror::Error;

use crate::fetch::{FetchError, FetchedPage, Fetcher};
use tcx_core as charset;

/// The default input limit in bytes (`fetch.max_body_bytes` in `config/default.toml`): the
/// largest page, after decompression, that is read from any source.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 10 * 1024 * 1024;

/// The `url` and `final_url` of a page read from standard input.
pub const STDIN_URL: &str = "stdin:";

/// Where a page comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// An `http://` or `https://` URL.
    Url(url::Url),
    /// A local file (`.gz` files and gzip data are decompressed).
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// An argument that starts with `http://` or `https://` but is not a valid URL; loading it
    /// fails with [`FetchError::InvalidUrl`].
    InvalidUrl(String),
    /// An argument with another URL scheme (`ftp://x/`, `file://…`, `mailto:`); loading it
    /// fails with [`LoadError::UnsupportedScheme`] instead of looking for a file of that name.
    UnsupportedScheme(String),
}

impl Input {
    /// Interprets a command-line argument: `-` is standard input, an argument starting with
    /// `http://` or `https://` (any case) is a URL, anything else a file path.
    pub fn parse(arg: &str) -> Input {
        if arg == "-" {
            return Input::Stdin;
        }
        let lower = arg.get(..8).unwrap_or(arg).to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return match url::Url::parse(arg) {
                Ok(url) => Input::Url(url),
                Err(e) => Input::InvalidUrl(format!("{arg}: {e}")),
            };
        }
        if has_url_scheme(arg) && !Path::new(arg).exists() {
            return Input::UnsupportedScheme(arg.to_owned());
        }
        Input::File(PathBuf::from(arg))
    }
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::Url(url) => write!(f, "{url}"),
            Input::File(path) => write!(f, "{}", path.display()),
            Input::Stdin => f.write_str("-"),
            Input::InvalidUrl(arg) | Input::UnsupportedScheme(arg) => f.write_str(arg),
        }
    }
}

/// Whether `arg` starts like a URL with a scheme (`ftp://`, `mailto:`): letters, digits,
/// `+`, `-`, `.` and a colon, with at least two characters before it (so a Windows drive
/// letter `C:` is not one).
fn has_url_scheme(arg: &str) -> bool {
    let Some((scheme, _)) = arg.split_once(':') else {
        return false;
    };
    scheme.len() >= 2
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Why an input could not be loaded.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LoadError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A gzip-compressed file (or standard input) could not be decompressed.
    #[error("cannot decompress {}: {source}", path.display())]
    Gunzip {
        /// The path as given (`-` for standard input).
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Standard input could not be read.
    #[error("cannot read standard input: {0}")]
    Stdin(#[source] std::io::Error),
    /// The input (after decompression) is larger than the input limit
    /// (`fetch.max_body_bytes`, the same limit as for fetched pages and inline job HTML).
    #[error("{} is larger than {limit} bytes (after decompression)", path.display())]
    TooLarge {
        /// The path as given (`-` for standard input).
        path: PathBuf,
        /// The limit in bytes.
        limit: usize,
    },
    /// The argument names a URL scheme tcx does not fetch (only `http` and `https`).
    #[error("unsupported URL scheme in {0}: only http:// and https:// URLs are fetched")]
    UnsupportedScheme(String),
    /// The URL could not be fetched.
    #[error(transparent)]
    Fetch(#[from] FetchError),
}

impl LoadError {
    /// A stable snake_case label: `io`, `gunzip`, or the [`FetchError::kind`] of a fetch.
    pub fn kind(&self) -> &'static str {
        match self {
            LoadError::Io { .. } | LoadError::Stdin(_) => "io",
            LoadError::Gunzip { .. } => "gunzip",
            LoadError::TooLarge { .. } => "too_large",
            LoadError::UnsupportedScheme(_) => "invalid_url",
            LoadError::Fetch(e) => e.kind(),
        }
    }

    /// Whether trying again may succeed (only some fetch errors; local input is final).
    pub fn retryable(&self) -> bool {
        match self {
            LoadError::Fetch(e) => e.retryable(),
            _ => false,
        }
    }
}

/// Whether `bytes` start with the gzip magic number.
fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Reads at most `limit` bytes from `reader`: more is [`LoadError::TooLarge`]. The limit is
/// enforced while reading, so a large or endless input costs no more than `limit + 1` bytes.
fn read_limited(
    reader: impl Read,
    limit: usize,
    path: &Path,
    capacity: usize,
    io_error: impl Fn(std::io::Error) -> LoadError,
) -> Result<Vec<u8>, LoadError> {
    let mut out = Vec::with_capacity(capacity);
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(io_error)?;
    if out.len() > limit {
        return Err(LoadError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(out)
}

/// Decompresses gzip data (also concatenated members) up to `limit` bytes of output — a
/// decompression bomb stops at the limit; other data is returned unchanged.
fn maybe_gunzip(bytes: Vec<u8>, path: &Path, limit: usize) -> Result<Vec<u8>, LoadError> {
    if !is_gzip(&bytes) {
        return Ok(bytes);
    }
    read_limited(
        MultiGzDecoder::new(bytes.as_slice()),
        limit,
        path,
        0,
        |source| LoadError::Gunzip {
            path: path.to_owned(),
            source,
        },
    )
}

/// Reads a file of at most `limit` bytes, transparently decompressing gzip data (`*.gz`
/// files, recognised by their magic bytes) to at most `limit` bytes.
pub fn read_file(path: &Path, limit: usize) -> Result<Vec<u8>, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io_error)?;
    // Sized from the file's length: through `take` the reader gives no size hint, and growing
    // the buffer by doubling cost more than the reading.
    let size = file.metadata().map_or(0, |m| m.len());
    let capacity = usize::try_from(size).unwrap_or(limit).min(limit) + 1;
    let bytes = read_limited(file, limit, path, capacity, io_error)?;
    maybe_gunzip(bytes, path, limit)
}

/// Reads standard input (at most `limit` bytes), transparently decompressing gzip data.
pub fn read_stdin(limit: usize) -> Result<Vec<u8>, LoadError> {
    let bytes = read_limited(
        std::io::stdin().lock(),
        limit,
        Path::new("-"),
        0,
        LoadError::Stdin,
    )?;
    maybe_gunzip(bytes, Path::new("-"), limit)
}

/// A page from bytes that did not come over HTTP (file, standard input, inline job HTML):
/// decoded with [`charset::decode`] without header or URL hints, status 200, `url` and
/// `final_url` set to `url`.
pub fn page_from_bytes(bytes: &[u8], url: String) -> FetchedPage {
    page_of(charset::decode(bytes, None, None), bytes.len(), url)
}

/// [`page_from_bytes`] taking the bytes by value: a UTF-8 page is not copied.
pub fn page_from_vec(bytes: Vec<u8>, url: String) -> FetchedPage {
    let len = bytes.len();
    page_of(charset::decode_owned(bytes, None, None), len, url)
}

fn page_of(decoded: charset::Decoded, bytes: usize, url: String) -> FetchedPage {
    FetchedPage {
        final_url: url.clone(),
        url,
        status: 200,
        content_type: None,
        html: decoded.text,
        encoding: decoded.encoding.name(),
        bytes,
    }
}

/// The `file://` URL of a path (made absolute against the current directory).
pub fn file_url(path: &Path) -> String {
    std::path::absolute(path)
        .ok()
        .and_then(|abs| url::Url::from_file_path(abs).ok())
        .map_or_else(|| format!("file://{}", path.display()), String::from)
}

/// Loads an input: fetches a URL with `fetcher`, or reads a file or standard input (on the
/// blocking pool) and decodes it, all under the fetcher's body limit
/// (`fetch.max_body_bytes`). Files get a `file:///abs/path` URL, standard input
/// [`STDIN_URL`].
pub async fn load(input: &Input, fetcher: &Fetcher) -> Result<FetchedPage, LoadError> {
    let limit = fetcher.max_body_bytes();
    match input {
        Input::Url(url) => Ok(fetcher.fetch(url.as_str()).await?),
        Input::InvalidUrl(arg) => Err(FetchError::InvalidUrl(arg.clone()).into()),
        Input::UnsupportedScheme(arg) => Err(LoadError::UnsupportedScheme(arg.clone())),
        Input::File(path) => {
            let owned = path.clone();
            let bytes = blocking(path, move || read_file(&owned, limit)).await?;
            Ok(page_from_vec(bytes, file_url(path)))
        }
        Input::Stdin => {
            let bytes = blocking(Path::new("-"), move || read_stdin(limit)).await?;
            Ok(page_from_vec(bytes, STDIN_URL.to_owned()))
        }
    }
}

/// Runs blocking I/O on tokio's blocking pool; `path` names the input if the task fails.
async fn blocking<F>(path: &Path, f: F) -> Result<Vec<u8>, LoadError>
where
    F: FnOnce() -> Result<Vec<u8>, LoadError> + Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| LoadError::Io {
            path: path.to_owned(),
            source: std::io::Error::other(e),
        })?
}

/// Formats a point in time as RFC 3339 in UTC with second precision.
pub fn rfc3339(t: std::time::SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tcx-source-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    fn fetcher() -> Fetcher {
        Fetcher::new(&crate::config::FetchSettings {
            connect_timeout_secs: 1,
            timeout_secs: 1,
            max_redirects: 0,
            max_body_bytes: 1024,
            user_agent: "tcx-test".into(),
            allow_private_networks: false,
            resolve: Vec::new(),
        })
        .unwrap()
    }

    #[test]
    fn parse_inputs() {
        assert_eq!(Input::parse("-"), Input::Stdin);
        assert_eq!(
            Input::parse("https://shop.de/agb"),
            Input::Url(url::Url::parse("https://shop.de/agb").unwrap())
        );
        assert!(
            matches!(Input::parse("HTTP://Shop.de/"), Input::Url(u) if u.host_str() == Some("shop.de"))
        );
        assert_eq!(Input::parse("page.html"), Input::File("page.html".into()));
        assert_eq!(
            Input::parse("./http/x.html"),
            Input::File("./http/x.html".into())
        );
        assert_eq!(
            Input::parse("ftp://x/y"),
            Input::UnsupportedScheme("ftp://x/y".into())
        );
        assert!(matches!(
            Input::parse("mailto:a@b.de"),
            Input::UnsupportedScheme(_)
        ));
        assert_eq!(
            Input::parse("C:page.html"),
            Input::File("C:page.html".into())
        );
        assert_eq!(Input::parse("--"), Input::File("--".into()));
        assert!(matches!(
            Input::parse("http://exa mple.com/"),
            Input::InvalidUrl(_)
        ));
        assert!(matches!(Input::parse("https://"), Input::InvalidUrl(_)));
        assert_eq!(Input::parse("dir/ü.html").to_string(), "dir/ü.html");
    }

    #[test]
    fn read_plain_and_gzip_files() {
        let dir = temp_dir("read");
        let html = "<html><body><p>Grüße</p></body></html>".as_bytes();
        std::fs::write(dir.join("a.html"), html).unwrap();
        std::fs::write(dir.join("a.html.gz"), gzip(html)).unwrap();
        std::fs::write(dir.join("mislabelled.html"), gzip(html)).unwrap();
        assert_eq!(read_file(&dir.join("a.html"), 1 << 20).unwrap(), html);
        assert_eq!(read_file(&dir.join("a.html.gz"), 1 << 20).unwrap(), html);
        assert_eq!(
            read_file(&dir.join("mislabelled.html"), 1 << 20).unwrap(),
            html
        );
        // Two concatenated gzip members.
        let mut two = gzip(b"<p>one</p>");
        two.extend(gzip(b"<p>two</p>"));
        std::fs::write(dir.join("two.html.gz"), two).unwrap();
        assert_eq!(
            read_file(&dir.join("two.html.gz"), 1 << 20).unwrap(),
            b"<p>one</p><p>two</p>"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_input_limit_holds_for_files_gzip_and_gzip_bombs() {
        let dir = temp_dir("limit");
        let page = b"<html><body><p>x</p></body></html>".repeat(100);
        std::fs::write(dir.join("big.html"), &page).unwrap();
        assert_eq!(read_file(&dir.join("big.html"), page.len()).unwrap(), page);
        let err = read_file(&dir.join("big.html"), page.len() - 1).unwrap_err();
        assert_eq!(err.kind(), "too_large");
        assert!(err.to_string().contains("larger than"), "{err}");
        // 64 MiB of zeros compress to about 64 KiB: unpacking stops at the limit.
        let bomb = gzip(&vec![0u8; 64 << 20]);
        assert!(bomb.len() < 1 << 20);
        std::fs::write(dir.join("bomb.html.gz"), &bomb).unwrap();
        let err = read_file(&dir.join("bomb.html.gz"), 1 << 20).unwrap_err();
        assert_eq!(err.kind(), "too_large");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn read_errors_have_clear_messages() {
        let err = read_file(Path::new("tests/does-not-exist.html"), 1 << 20).unwrap_err();
        assert_eq!(err.kind(), "io");
        assert!(!err.retryable());
        assert!(
            err.to_string()
                .starts_with("cannot read tests/does-not-exist.html: No such file or directory"),
            "{err}"
        );
        let dir = temp_dir("broken");
        let mut broken = gzip(b"<p>some text that is long enough</p>");
        broken.truncate(12);
        std::fs::write(dir.join("broken.html.gz"), broken).unwrap();
        let err = read_file(&dir.join("broken.html.gz"), 1 << 20).unwrap_err();
        assert_eq!(err.kind(), "gunzip");
        assert!(err.to_string().starts_with("cannot decompress "), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn pages_from_bytes_are_decoded() {
        let bytes = b"<meta charset=iso-8859-1><p>Gr\xfc\xdfe</p>";
        let page = page_from_bytes(bytes, "file:///x.html".into());
        assert_eq!(page.html, "<meta charset=iso-8859-1><p>Grüße</p>");
        assert_eq!(page.encoding, "windows-1252");
        assert_eq!(page.bytes, bytes.len());
        assert_eq!(
            (page.status, page.final_url.as_str()),
            (200, "file:///x.html")
        );
    }

    #[test]
    fn file_urls_are_absolute() {
        let u = file_url(Path::new("tests/x y.html"));
        assert!(u.starts_with("file:///"), "{u}");
        assert!(u.ends_with("/tests/x%20y.html"), "{u}");
    }

    #[tokio::test]
    async fn load_file_and_refused_url() {
        let dir = temp_dir("load");
        let path = dir.join("agb.html.gz");
        std::fs::write(&path, gzip(b"<p>Gr\xfc\xdfe</p>")).unwrap();
        let page = load(&Input::File(path.clone()), &fetcher()).await.unwrap();
        assert_eq!(page.html, "<p>Grüße</p>");
        assert_eq!(page.url, url::Url::from_file_path(&path).unwrap().as_str());
        assert_eq!(page.url, page.final_url);

        let err = load(&Input::File(dir.join("missing.html")), &fetcher())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), "io");

        // Loopback is refused before any traffic is sent.
        let err = load(&Input::parse("http://127.0.0.1:9/agb"), &fetcher())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), "address_refused");
        assert!(err.to_string().contains("loopback"), "{err}");

        let err = load(&Input::parse("http://exa mple.com/"), &fetcher())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), "invalid_url");
        let _ = std::fs::remove_dir_all(dir);
    }
}

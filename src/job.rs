//! The messages of the worker: [`Job`] in, [`ResultMessage`] out, and the readers of job lists
//! (a text file of URLs, the crawler CSV `id,name,shop_url,agb_url`, or a directory of pages).
//!
//! A page job is `{ "job_id": str, "url": str, "html"?: str, "shop"?: str, "lang_hint"?:
//! "de"|"en", "follow_legal_links"?: bool }`; `html` lets a crawler that already holds the page
//! skip the fetch. Its result is the [`Document`] with `job_id` set plus the `attempt` that
//! produced it.
//!
//! A site job is `{ "job_id": str, "shop_url": str, "lang_hint"?: … }` (no `url`): the worker
//! finds the shop's legal pages and publishes a page job for each (with `site_job_id` and
//! `found_by`), and one [`SiteResult`] listing what it found.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use tcx_core::Document;

/// Longest accepted job id, in bytes.
pub const MAX_JOB_ID_LEN: usize = 256;

/// AMQP header carrying the attempt number of a job (1 for the first delivery).
pub const ATTEMPT_HEADER: &str = "x-tcx-attempt";

/// AMQP header carrying the reason a message was dead-lettered.
pub const REASON_HEADER: &str = "x-tcx-reason";

/// One crawl job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Caller-chosen id, echoed in the result.
    pub job_id: String,
    /// The page's URL (fetched unless `html` is given); empty for a site job.
    #[serde(default)]
    pub url: String,
    /// The page itself, when the crawler already holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Name or URL of the shop, for the caller's bookkeeping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop: Option<String>,
    /// Expected language (`de` or `en`), a hint only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang_hint: Option<String>,
    /// A site job: the shop's address (its start page); `url` stays empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_url: Option<String>,
    /// When the page turns out not to be a legal page, follow its legal links as a site job
    /// would.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub follow_legal_links: bool,
    /// Set on the page jobs a site job made: that job's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_job_id: Option<String>,
    /// Set on the page jobs a site job made: the link the page was found by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_by: Option<FoundBy>,
}

/// The link a discovered page was found by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundBy {
    /// The link text.
    pub text: String,
    /// The link's absolute URL.
    pub url: String,
    /// The page the link is on.
    pub page: String,
    /// The document type the link names (`terms`, `privacy`, …).
    pub document_type: String,
}

/// The result of a site job: where discovery started and every legal link it found, with
/// what became of each. An error result (`status: "error"`) when the start page could not be
/// read or held no legal link (`no_legal_pages`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteResult {
    /// Always `"site"` (page results have no `result_type`).
    pub result_type: String,
    /// The site job's id.
    pub job_id: String,
    /// `ok` or `error`.
    pub status: tcx_core::Status,
    /// The shop's address as given.
    pub shop_url: String,
    /// The start page after redirects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    /// The legal links found (see [`crate::discover::FoundLink`]).
    pub pages: Vec<crate::discover::FoundLink>,
    /// Page jobs published.
    pub pages_enqueued: usize,
    /// What went wrong, for an error result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<tcx_core::ErrorInfo>,
    /// When discovery finished (RFC 3339).
    pub extracted_at: String,
    /// 1 for the first try, n+1 after n retries.
    pub attempt: u32,
}

/// Why a message is not a valid job. Such messages go to the dead-letter queue.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JobError {
    /// The body is not JSON of the job's shape.
    #[error("invalid job JSON: {0}")]
    Json(String),
    /// The JSON parses but a field is unusable.
    #[error("invalid job: {0}")]
    Invalid(String),
}

impl JobError {
    /// A stable label for metrics and the dead-letter reason.
    pub fn kind(&self) -> &'static str {
        match self {
            JobError::Json(_) => "invalid_json",
            JobError::Invalid(_) => "invalid_job",
        }
    }
}

impl Job {
    /// A job for `url` with id `job_id` and nothing else.
    pub fn new(job_id: impl Into<String>, url: impl Into<String>) -> Job {
        Job {
            job_id: job_id.into(),
            url: url.into(),
            html: None,
            shop: None,
            lang_hint: None,
            shop_url: None,
            follow_legal_links: false,
            site_job_id: None,
            found_by: None,
        }
    }

    /// A site job for the shop at `shop_url`.
    pub fn site(job_id: impl Into<String>, shop_url: impl Into<String>) -> Job {
        let mut job = Job::new(job_id, "");
        job.shop_url = Some(shop_url.into());
        job
    }

    /// Whether this is a site job (a `shop_url` and no page URL or inline page).
    pub fn is_site_job(&self) -> bool {
        self.url.trim().is_empty() && self.html.is_none() && self.shop_url.is_some()
    }

    /// Parses and validates a message body.
    pub fn from_slice(body: &[u8]) -> Result<Job, JobError> {
        let job: Job = serde_json::from_slice(body).map_err(|e| JobError::Json(e.to_string()))?;
        job.validate()?;
        Ok(job)
    }

    /// Checks the fields: a non-empty id of at most [`MAX_JOB_ID_LEN`] bytes, a URL unless
    /// the HTML is inline, and a known language hint.
    pub fn validate(&self) -> Result<(), JobError> {
        if self.job_id.trim().is_empty() {
            return Err(JobError::Invalid("job_id is empty".into()));
        }
        if self.job_id.len() > MAX_JOB_ID_LEN {
            return Err(JobError::Invalid(format!(
                "job_id is longer than {MAX_JOB_ID_LEN} bytes"
            )));
        }
        if let Some(shop_url) = &self.shop_url
            && self.is_site_job()
        {
            let usable = url::Url::parse(shop_url.trim())
                .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
            if !usable {
                return Err(JobError::Invalid(format!(
                    "shop_url {shop_url:?} is not an http(s) URL"
                )));
            }
        } else if self.url.trim().is_empty() && self.html.is_none() {
            return Err(JobError::Invalid(
                "url is empty and neither html nor shop_url is given".into(),
            ));
        }
        if let Some(lang) = &self.lang_hint
            && !matches!(lang.as_str(), "de" | "en")
        {
            return Err(JobError::Invalid(format!(
                "lang_hint {lang:?} is not de or en"
            )));
        }
        Ok(())
    }
}

/// The published result: the [`Document`] (with `job_id`) and the attempt that produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultMessage {
    /// The Document of the page, `status` ok or error.
    #[serde(flatten)]
    pub document: Document,
    /// 1 for the first try, n+1 after n retries.
    pub attempt: u32,
    /// For a page a site job found: that job's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_job_id: Option<String>,
    /// The shop, as the job named it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop: Option<String>,
    /// For a page a site job found: the link it was found by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_by: Option<FoundBy>,
}

impl ResultMessage {
    /// The result of `job`: its Document and the job's site bookkeeping.
    pub fn for_job(document: Document, attempt: u32, job: &Job) -> ResultMessage {
        ResultMessage {
            document,
            attempt,
            site_job_id: job.site_job_id.clone(),
            shop: job.shop.clone(),
            found_by: job.found_by.clone(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Job lists

/// One unit of work of a batch or an enqueue run.
// Items are few and short-lived; boxing the job would only add an allocation per item.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkItem {
    /// A job message (URL to fetch, or inline HTML).
    Job(Job),
    /// A local `.html` / `.html.gz` file analysed without fetching; the id is its file name.
    File {
        /// The job id (the path relative to the input directory).
        job_id: String,
        /// The file.
        path: PathBuf,
    },
}

impl WorkItem {
    /// The job id.
    pub fn job_id(&self) -> &str {
        match self {
            WorkItem::Job(job) => &job.job_id,
            WorkItem::File { job_id, .. } => job_id,
        }
    }
}

/// What a job list held: the items, and lines that were skipped with the reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobList {
    /// Items in input order.
    pub items: Vec<WorkItem>,
    /// `(line number, reason)` of lines that give no job.
    pub skipped: Vec<(usize, String)>,
}

/// Why a job list could not be read.
#[derive(Debug, Error)]
pub enum InputError {
    /// The file or directory could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A CSV header without the `agb_url` (or `url`) column.
    #[error("{}: CSV header has no agb_url or url column", path.display())]
    CsvHeader {
        /// The path.
        path: PathBuf,
    },
}

/// Reads a job list: a directory means its `.html`/`.html.gz` files (recursively, sorted);
/// a file whose first line is a CSV header naming `agb_url` (or `url`) is the crawler CSV;
/// anything else is one URL a line (blank lines and `#` comments are skipped).
pub fn read_job_list(path: &Path) -> Result<JobList, InputError> {
    read_job_list_with(path, false)
}

/// Like [`read_job_list`]; with `sites`, each line of a URL list names a shop (a site job)
/// instead of a page.
pub fn read_job_list_with(path: &Path, sites: bool) -> Result<JobList, InputError> {
    let io = |source| InputError::Io {
        path: path.to_owned(),
        source,
    };
    if path.is_dir() {
        let mut files = Vec::new();
        collect_pages(path, &mut files).map_err(io)?;
        files.sort();
        let items = files
            .into_iter()
            .map(|file| WorkItem::File {
                job_id: file
                    .strip_prefix(path)
                    .unwrap_or(&file)
                    .to_string_lossy()
                    .into_owned(),
                path: file,
            })
            .collect();
        return Ok(JobList {
            items,
            skipped: Vec::new(),
        });
    }
    let text = std::fs::read_to_string(path).map_err(io)?;
    parse_job_list_with(&text, sites).ok_or_else(|| InputError::CsvHeader {
        path: path.to_owned(),
    })
}

/// Parses the text of a job list (see [`read_job_list`]); `None` for a CSV header without a
/// URL column.
pub fn parse_job_list(text: &str) -> Option<JobList> {
    parse_job_list_with(text, false)
}

/// Like [`parse_job_list`]; with `sites`, each line of a URL list is a site job. A CSV row
/// with a `shop_url` but no `agb_url` is a site job either way.
pub fn parse_job_list_with(text: &str, sites: bool) -> Option<JobList> {
    let mut lines = text.lines().enumerate();
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let is_csv = first.contains(',') && !looks_like_url(first);
    let mut list = JobList::default();
    if !is_csv {
        for (i, line) in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if !looks_like_url(line) {
                list.skipped
                    .push((i + 1, format!("not an http(s) URL: {line}")));
                continue;
            }
            let job = if sites {
                Job::site(url_job_id(line), line.to_owned())
            } else {
                Job::new(url_job_id(line), line.to_owned())
            };
            list.items.push(WorkItem::Job(job));
        }
        return Some(list);
    }
    let header: Vec<String> = loop {
        let (_, line) = lines.next()?;
        if !line.trim().is_empty() {
            break split_csv_line(line)
                .into_iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .collect();
        }
    };
    let col = |name: &str| header.iter().position(|h| h == name);
    let url_col = col("agb_url").or_else(|| col("url"))?;
    let id_col = col("id").or_else(|| col("job_id"));
    let shop_url_col = col("shop_url");
    let shop_col = shop_url_col.or_else(|| col("name"));
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields = split_csv_line(line);
        let url = fields.get(url_col).map(|s| s.trim()).unwrap_or("");
        let shop_url = shop_url_col
            .and_then(|c| fields.get(c))
            .map(|s| s.trim())
            .filter(|s| looks_like_url(s));
        if url.is_empty()
            && let Some(shop_url) = shop_url
        {
            // No page known: find the shop's legal pages.
            let id = id_col
                .and_then(|c| fields.get(c))
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| url_job_id(shop_url));
            let mut job = Job::site(id, shop_url.to_owned());
            job.shop = Some(shop_url.to_owned());
            list.items.push(WorkItem::Job(job));
            continue;
        }
        if !looks_like_url(url) {
            list.skipped
                .push((i + 1, format!("no http(s) URL in {line}")));
            continue;
        }
        let id = id_col
            .and_then(|c| fields.get(c))
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| url_job_id(url));
        let mut job = Job::new(id, url.to_owned());
        job.shop = shop_col
            .and_then(|c| fields.get(c))
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty());
        list.items.push(WorkItem::Job(job));
    }
    Some(list)
}

fn looks_like_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// A stable job id for a bare URL: `u-` and the FNV-1a 64 hash of the URL in hex, so the same
/// URL always gets the same id.
pub fn url_job_id(url: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("u-{h:016x}")
}

/// Splits one CSV line (RFC 4180 quoting with `""` escapes; no line breaks inside fields).
pub fn split_csv_line(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn collect_pages(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_pages(&path, out)?;
        } else {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            if name.ends_with(".html") || name.ends_with(".html.gz") || name.ends_with(".htm") {
                out.push(path);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates_jobs() {
        let job = Job::from_slice(br#"{"job_id":"1","url":"https://a.de/agb","lang_hint":"de"}"#)
            .unwrap();
        assert_eq!(job.job_id, "1");
        assert_eq!(job.lang_hint.as_deref(), Some("de"));
        let site = Job::from_slice(br#"{"job_id":"s","shop_url":"https://shop.de/"}"#).unwrap();
        assert!(site.is_site_job());
        let inline = Job::from_slice(br#"{"job_id":"2","url":"","html":"<p>x</p>"}"#).unwrap();
        assert_eq!(inline.html.as_deref(), Some("<p>x</p>"));
        for (body, kind) in [
            (&b"not json"[..], "invalid_json"),
            (br#"{"url":"https://a.de"}"#, "invalid_json"),
            (br#"{"job_id":"","url":"https://a.de"}"#, "invalid_job"),
            (br#"{"job_id":"x","url":""}"#, "invalid_job"),
            (br#"{"job_id":"x","shop_url":"shop.de"}"#, "invalid_job"),
            (
                br#"{"job_id":"x","shop_url":"ftp://shop.de"}"#,
                "invalid_job",
            ),
            (
                br#"{"job_id":"x","url":"u","lang_hint":"fr"}"#,
                "invalid_job",
            ),
        ] {
            assert_eq!(Job::from_slice(body).unwrap_err().kind(), kind);
        }
    }

    #[test]
    fn url_lists_and_csv() {
        let list = parse_job_list("# c\nhttps://a.de/agb\n\nftp://x\nhttp://b.de/\n").unwrap();
        assert_eq!(list.items.len(), 2);
        assert_eq!(
            list.skipped,
            vec![(4, "not an http(s) URL: ftp://x".into())]
        );
        assert_eq!(list.items[0].job_id(), url_job_id("https://a.de/agb"));
        let sites = parse_job_list_with("https://shop.de\n", true).unwrap();
        let WorkItem::Job(site) = &sites.items[0] else {
            panic!("expected a site job")
        };
        assert!(site.is_site_job());
        assert_eq!(site.shop_url.as_deref(), Some("https://shop.de"));

        let csv = "id,name,shop_url,agb_url\n7,\"Shop, GmbH\",https://s.de,https://s.de/agb\n8,x,https://t.de,\n9,y,,\n";
        let list = parse_job_list(csv).unwrap();
        assert_eq!(list.items.len(), 2);
        let WorkItem::Job(site) = &list.items[1] else {
            panic!("expected a site job")
        };
        assert!(site.is_site_job());
        assert_eq!(
            (site.job_id.as_str(), site.shop_url.as_deref()),
            ("8", Some("https://t.de"))
        );
        let WorkItem::Job(job) = &list.items[0] else {
            panic!("expected a job")
        };
        assert_eq!(
            (job.job_id.as_str(), job.url.as_str()),
            ("7", "https://s.de/agb")
        );
        assert_eq!(job.shop.as_deref(), Some("https://s.de"));
        assert_eq!(list.skipped.len(), 1);
        assert!(parse_job_list("a,b\n1,2\n").is_none());
    }

    #[test]
    fn csv_quoting() {
        assert_eq!(
            split_csv_line(r#"a,"b,c","d""e",,"#),
            vec!["a", "b,c", "d\"e", "", ""]
        );
    }

    #[test]
    fn result_message_flattens_the_document() {
        let doc = Document::from_error(
            tcx_core::ErrorInfo::new("timeout", "request timed out", true),
            Default::default(),
            "2026-01-01T00:00:00Z".into(),
        );
        let msg = ResultMessage::for_job(doc.with_job_id("j"), 2, &Job::new("j", "u"));
        let json = serde_json::to_value(&msg).unwrap();
        assert_eq!(json["job_id"], "j");
        assert_eq!(json["attempt"], 2);
        assert_eq!(json["error"]["kind"], "timeout");
        let back: ResultMessage = serde_json::from_value(json).unwrap();
        assert_eq!(back, msg);
    }
}

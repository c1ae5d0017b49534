//! Gold files: the manifest (`gold.tsv`), Markdown and plain-text golds, and our own JSON gold
//! for hand-labelled pages (format in `docs/eval.md`).

mod markdown;
pub use markdown::{clean_inline, parse_markdown};

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::measures::{HeadingNode, tokens};

/// What a gold file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldKind {
    /// Markdown: the main text with `#`/setext heading levels.
    Markdown,
    /// Plain main text, no headings.
    Text,
    /// Our hand-labelled JSON: first/last words and the heading tree.
    Json,
}

impl GoldKind {
    /// The manifest's name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            GoldKind::Markdown => "markdown",
            GoldKind::Text => "text",
            GoldKind::Json => "json",
        }
    }
}

/// One page to score: where its HTML is and what its gold is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// A short id for reports (the gold path without corpus prefix).
    pub id: String,
    /// The HTML (or `.html.gz`) file.
    pub html: PathBuf,
    /// The gold file; for `ground-truth.json#key` references, the JSON file.
    pub gold: PathBuf,
    /// Key into a JSON ground-truth file (`file.json#key`), when the gold is one.
    pub gold_key: Option<String>,
    /// Language of the page as the manifest says.
    pub lang: String,
    /// Kind of the gold.
    pub kind: GoldKind,
    /// The group a page is reported under (the corpus source folder, `hand-labelled`, or
    /// [`WRITTEN_GROUP`]).
    pub group: String,
}

/// The group of JSON golds marked `"written": true`: pages written for the tests (modelled on
/// shop systems' layouts, `tests/fixtures/written/`), not real pages. They are reported in
/// their own group and left out of the overall figures.
pub const WRITTEN_GROUP: &str = "written";

/// Reads a `gold.tsv` manifest: a header line, then `html<TAB>gold<TAB>lang<TAB>kind` rows with
/// paths relative to `corpus`. Empty lines and lines starting with `#` are skipped.
pub fn read_manifest(manifest: &Path, corpus: &Path) -> Result<Vec<Entry>> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("reading manifest {}", manifest.display()))?;
    parse_manifest(&text, corpus).with_context(|| format!("in manifest {}", manifest.display()))
}

/// Parses manifest text (see [`read_manifest`]).
pub fn parse_manifest(text: &str, corpus: &Path) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if n == 0 && cols.first().is_some_and(|c| c.eq_ignore_ascii_case("html")) {
            continue;
        }
        if cols.len() < 4 {
            bail!("line {}: expected 4 tab-separated columns", n + 1);
        }
        let kind = match cols[3].trim() {
            "markdown" | "md" => GoldKind::Markdown,
            "text" | "txt" => GoldKind::Text,
            "json" => GoldKind::Json,
            other => bail!("line {}: unknown gold kind {other:?}", n + 1),
        };
        let (gold_path, gold_key) = match cols[1].split_once('#') {
            Some((p, k)) => (p, Some(k.to_owned())),
            None => (cols[1], None),
        };
        let group = cols[0]
            .strip_prefix("raw/")
            .unwrap_or(cols[0])
            .split('/')
            .next()
            .unwrap_or("")
            .to_owned();
        out.push(Entry {
            id: short_id(cols[1]),
            html: corpus.join(cols[0]),
            gold: corpus.join(gold_path),
            gold_key,
            lang: cols[2].trim().to_owned(),
            kind,
            group,
        });
    }
    Ok(out)
}

/// A readable id: the last two path parts of a gold reference, without the gold extensions.
fn short_id(gold: &str) -> String {
    let parts: Vec<&str> = gold.rsplitn(3, '/').collect();
    let tail = if parts.len() >= 2 {
        format!("{}/{}", parts[1], parts[0])
    } else {
        gold.to_owned()
    };
    let tail = tail.replace("/gold/", "/");
    for ext in [".gt.md", ".md", ".txt", ".gold.json", ".json"] {
        if let Some(s) = tail.strip_suffix(ext) {
            return s.to_owned();
        }
    }
    tail
}

/// Our JSON gold for a hand-labelled page (see `docs/eval.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonGold {
    /// The page, relative to the corpus directory (to the gold file's directory when
    /// `written`).
    pub html: String,
    /// A page written for the tests, not a real one: `html` lies in the repository.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written: bool,
    /// Language of the main content (`de`, `en`).
    pub lang: String,
    /// What the page is: `agb`, `widerruf`, `datenschutz`, `impressum`, `versand`, … (free text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_type: Option<String>,
    /// The first words of the main content as a reader sees it (at least 8 word tokens).
    pub first_words: String,
    /// The last words of the main content (at least 8 word tokens).
    pub last_words: String,
    /// The section title tree.
    #[serde(default)]
    pub headings: Vec<JsonHeading>,
    /// Remarks of the labeller: what was included or left out and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// One heading of a [`JsonGold`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonHeading {
    /// The title as written on the page, with its numbering.
    pub title: String,
    /// Subsections.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<JsonHeading>,
}

impl JsonHeading {
    fn to_node(&self) -> HeadingNode {
        HeadingNode {
            title: self.title.clone(),
            text: None,
            children: self.children.iter().map(JsonHeading::to_node).collect(),
        }
    }
}

/// Loads every `*.gold.json` in `dir` (sorted by name) as manifest entries.
pub fn json_entries(dir: &Path, corpus: &Path) -> Result<Vec<Entry>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading gold directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".gold.json"))
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let gold = read_json_gold(&f)?;
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .trim_end_matches(".gold.json")
            .to_owned();
        let (id, html, group) = match f.parent() {
            Some(dir) if gold.written => (
                format!("written/{}", name.trim_start_matches("written-")),
                dir.join(&gold.html),
                WRITTEN_GROUP,
            ),
            _ => (
                format!("hand/{name}"),
                corpus.join(&gold.html),
                "hand-labelled",
            ),
        };
        out.push(Entry {
            id,
            html,
            gold: f,
            gold_key: None,
            lang: gold.lang,
            kind: GoldKind::Json,
            group: group.to_owned(),
        });
    }
    Ok(out)
}

/// Reads and checks one JSON gold file.
pub fn read_json_gold(path: &Path) -> Result<JsonGold> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading gold {}", path.display()))?;
    let gold: JsonGold =
        serde_json::from_str(&text).with_context(|| format!("parsing gold {}", path.display()))?;
    if tokens(&gold.first_words).is_empty() || tokens(&gold.last_words).is_empty() {
        bail!(
            "{}: first_words and last_words must hold words",
            path.display()
        );
    }
    Ok(gold)
}

/// A loaded gold, whatever its kind.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Gold {
    /// The main text, when the gold has it (Markdown and text golds).
    pub text: Option<String>,
    /// Word tokens whose first 8 are the opening.
    pub first_tokens: Vec<String>,
    /// Word tokens whose last 8 are the closing.
    pub last_tokens: Vec<String>,
    /// The heading tree; `None` when the gold has no headings.
    pub headings: Option<Vec<HeadingNode>>,
}

impl Gold {
    /// A gold made of a full text and its heading tree.
    pub fn from_text(text: String, headings: Vec<HeadingNode>) -> Gold {
        let toks = tokens(&text);
        Gold {
            first_tokens: toks.clone(),
            last_tokens: toks,
            text: Some(text),
            headings: (!headings.is_empty()).then_some(headings),
        }
    }

    /// The gold of a hand-labelled page.
    pub fn from_json(g: &JsonGold) -> Gold {
        let headings: Vec<HeadingNode> = g.headings.iter().map(JsonHeading::to_node).collect();
        Gold {
            text: None,
            first_tokens: tokens(&g.first_words),
            last_tokens: tokens(&g.last_words),
            headings: (!headings.is_empty()).then_some(headings),
        }
    }
}

/// Loads the gold of a manifest entry.
pub fn load_gold(entry: &Entry) -> Result<Gold> {
    match entry.kind {
        GoldKind::Json => Ok(Gold::from_json(&read_json_gold(&entry.gold)?)),
        GoldKind::Markdown => {
            let md = std::fs::read_to_string(&entry.gold)
                .with_context(|| format!("reading gold {}", entry.gold.display()))?;
            let (text, headings) = parse_markdown(&md);
            Ok(Gold::from_text(text, headings))
        }
        GoldKind::Text => {
            let text = match &entry.gold_key {
                None => std::fs::read_to_string(&entry.gold)
                    .with_context(|| format!("reading gold {}", entry.gold.display()))?,
                Some(key) => article_body(&entry.gold, key)?,
            };
            Ok(Gold::from_text(text, Vec::new()))
        }
    }
}

/// The `articleBody` of `key` in a scrapinghub-style `ground-truth.json`.
fn article_body(path: &Path, key: &str) -> Result<String> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading gold {}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    v.get(key)
        .and_then(|item| item.get("articleBody"))
        .and_then(|b| b.as_str())
        .map(str::to_owned)
        .with_context(|| format!("{}: no articleBody for {key}", path.display()))
}

#[cfg(test)]
mod tests;

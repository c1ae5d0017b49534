//! Gold files: the manifest (`gold.tsv`), Markdown and plain-text golds, and our own JSON gold
//! for hand-labelled pages (format in `docs/eval.md`).

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
    /// The group a page is reported under (the corpus source folder, or `hand-labelled`).
    pub group: String,
}

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
    /// The page, relative to the corpus directory.
    pub html: String,
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
        out.push(Entry {
            id: format!("hand/{name}"),
            html: corpus.join(&gold.html),
            gold: f,
            gold_key: None,
            lang: gold.lang,
            kind: GoldKind::Json,
            group: "hand-labelled".to_owned(),
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

// ---------------------------------------------------------------------------------------------
// Markdown

/// A heading found in Markdown, with its level.
#[derive(Debug, Clone, PartialEq)]
struct MdHeading {
    level: usize,
    title: String,
    /// Text lines below the heading up to the next heading.
    own: Vec<String>,
}

/// Parses a Markdown gold: returns the text with Markdown syntax removed (one block per line,
/// headings included) and the heading tree (ATX `#` levels, setext `===` level 1 and `---`
/// level 2), each node with the text of its section.
pub fn parse_markdown(md: &str) -> (String, Vec<HeadingNode>) {
    let lines: Vec<&str> = md.lines().collect();
    let mut text: Vec<String> = Vec::new();
    let mut heads: Vec<MdHeading> = Vec::new();
    let mut preamble: Vec<String> = Vec::new();
    let mut in_fence: Option<&str> = None;
    let mut i = 0;
    let push_text =
        |s: String, heads: &mut Vec<MdHeading>, pre: &mut Vec<String>, text: &mut Vec<String>| {
            if s.trim().is_empty() {
                return;
            }
            match heads.last_mut() {
                Some(h) => h.own.push(s.clone()),
                None => pre.push(s.clone()),
            }
            text.push(s);
        };
    while i < lines.len() {
        let raw = lines[i].trim_end_matches('\r');
        let trimmed = raw.trim();
        i += 1;
        // fenced code: keep the content verbatim
        if let Some(fence) = in_fence {
            if trimmed.starts_with(fence) {
                in_fence = None;
            } else {
                push_text(trimmed.to_owned(), &mut heads, &mut preamble, &mut text);
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = Some(&trimmed[..3]);
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        // ATX heading, also as the content of a list item (`1.  ### Title`: a heading tag
        // inside an <li> on the page)
        let in_item = list_marker_len(trimmed)
            .and_then(|n| trimmed.get(n..))
            .map(str::trim_start);
        if indent < 4
            && let Some((level, title)) =
                atx_heading(trimmed).or_else(|| in_item.and_then(atx_heading))
        {
            let title = clean_inline(title);
            heads.push(MdHeading {
                level,
                title: title.clone(),
                own: Vec::new(),
            });
            text.push(title);
            continue;
        }
        // setext heading: this line is a paragraph line and the next is an underline
        let next = lines.get(i).map(|l| l.trim_end_matches('\r')).unwrap_or("");
        if indent < 4
            && !is_table_row(trimmed)
            && list_marker_len(trimmed).is_none()
            && !is_thematic_break(trimmed)
            && let Some(level) = setext_level(next)
        {
            let title = clean_inline(trimmed);
            i += 1;
            if !title.trim().is_empty() {
                heads.push(MdHeading {
                    level,
                    title: title.clone(),
                    own: Vec::new(),
                });
                text.push(title);
            }
            continue;
        }
        if is_thematic_break(trimmed) || is_reference_definition(trimmed) {
            continue;
        }
        if is_table_row(trimmed) {
            if is_table_delimiter(trimmed) {
                continue;
            }
            for cell in table_cells(trimmed) {
                for part in clean_block(cell).split('\n') {
                    push_text(part.trim().to_owned(), &mut heads, &mut preamble, &mut text);
                }
            }
            continue;
        }
        for part in clean_block(trimmed).split('\n') {
            push_text(part.trim().to_owned(), &mut heads, &mut preamble, &mut text);
        }
    }
    (text.join("\n"), build_tree(heads))
}

/// `(level, title)` of an ATX heading line (`## Title ##`).
fn atx_heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    let mut title = rest.trim();
    // closing sequence: spaces then #s
    let stripped = title.trim_end_matches('#');
    if stripped.is_empty() || stripped.ends_with(' ') {
        title = stripped.trim_end();
    }
    Some((level, title))
}

/// The level of a setext underline (`===` → 1, `---` → 2).
fn setext_level(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start().len();
    let t = line.trim();
    if indent >= 4 || t.is_empty() {
        return None;
    }
    if t.bytes().all(|b| b == b'=') {
        Some(1)
    } else if t.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// `***`, `---`, `___`, `* * *` …
fn is_thematic_break(line: &str) -> bool {
    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    chars.len() >= 3 && matches!(chars[0], '*' | '-' | '_') && chars.iter().all(|&c| c == chars[0])
}

/// `[label]: url`
fn is_reference_definition(line: &str) -> bool {
    line.starts_with('[')
        && line
            .find("]:")
            .is_some_and(|p| !line[..p].contains('[') || p > 1)
}

fn is_table_row(line: &str) -> bool {
    line.starts_with('|')
}

fn is_table_delimiter(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
        && line.contains('-')
}

/// Cells of a table row, split at unescaped `|`.
fn table_cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = Vec::new();
    let mut start = 0;
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'|' => {
                cells.push(&inner[start..i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start <= inner.len() {
        cells.push(&inner[start..]);
    }
    cells
}

/// Length of a list marker (`*   `, `- `, `1. `, `2) `) at the start of a trimmed line.
fn list_marker_len(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    if matches!(b.first(), Some(b'*' | b'-' | b'+')) && matches!(b.get(1), Some(b' ' | b'\t')) {
        return Some(1);
    }
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if (1..=9).contains(&digits)
        && matches!(b.get(digits), Some(b'.' | b')'))
        && matches!(b.get(digits + 1), Some(b' ' | b'\t'))
    {
        return Some(digits + 1);
    }
    None
}

/// One block line (trimmed): strips blockquote and (nested) list markers, then inline syntax.
fn clean_block(line: &str) -> String {
    let mut s = line;
    loop {
        let t = s.trim_start();
        if let Some(r) = t.strip_prefix('>') {
            s = r;
            continue;
        }
        if let Some(n) = list_marker_len(t) {
            s = &t[n..];
            continue;
        }
        s = t;
        break;
    }
    clean_inline(s)
}

/// Removes inline Markdown: emphasis and code markers, links `[t](u)` → `t`, images, HTML
/// tags (`<br>` becomes a line break), autolinks, backslash escapes and HTML entities.
pub fn clean_inline(s: &str) -> String {
    let out = strip_inline(s);
    htmlize::unescape(out).into_owned()
}

fn strip_inline(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '!' if chars.get(i + 1) == Some(&'[') => match parse_link(&chars, i + 1) {
                Some((_, end)) => i = end,
                None => {
                    out.push('!');
                    i += 1;
                }
            },
            '[' => match parse_link(&chars, i) {
                Some((label, end)) => {
                    out.push_str(&strip_inline(&label));
                    i = end;
                }
                None => {
                    out.push('[');
                    i += 1;
                }
            },
            '<' => match parse_tag(&chars, i) {
                Some((Tag::Break, end)) => {
                    out.push('\n');
                    i = end;
                }
                Some((Tag::Other, end)) => {
                    out.push(' ');
                    i = end;
                }
                Some((Tag::Autolink(url), end)) => {
                    out.push_str(&url);
                    i = end;
                }
                None => {
                    out.push('<');
                    i += 1;
                }
            },
            '*' | '_' | '`' => i += 1,
            '~' if chars.get(i + 1) == Some(&'~') => i += 2,
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Index of the bracket closing the one at `open` (escape-aware, nesting), if any.
fn matching(chars: &[char], open: usize, o: char, c: char) -> Option<usize> {
    let mut depth = 0;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            x if x == o => depth += 1,
            x if x == c => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Parses `[label](url "title")`, `[label][ref]` or `[label][]` starting at `open`:
/// returns the label and the index after the link.
fn parse_link(chars: &[char], open: usize) -> Option<(String, usize)> {
    let close = matching(chars, open, '[', ']')?;
    let label: String = chars[open + 1..close].iter().collect();
    match chars.get(close + 1) {
        Some('(') => {
            let end = matching(chars, close + 1, '(', ')')?;
            Some((label, end + 1))
        }
        Some('[') => {
            let end = matching(chars, close + 1, '[', ']')?;
            Some((label, end + 1))
        }
        _ => None,
    }
}

enum Tag {
    Break,
    Other,
    Autolink(String),
}

/// Parses an HTML tag or autolink at `open` (`<br>`, `</span>`, `<!-- … -->`, `<https://…>`).
fn parse_tag(chars: &[char], open: usize) -> Option<(Tag, usize)> {
    let next = *chars.get(open + 1)?;
    if !(next.is_ascii_alphabetic() || next == '/' || next == '!') {
        return None;
    }
    let close = (open + 1..chars.len()).find(|&j| chars[j] == '>')?;
    let inner: String = chars[open + 1..close].iter().collect();
    if inner.contains(' ') && !inner.contains('=') && !inner.starts_with('!') {
        // `a < b` style text, or a tag with a bare attribute we cannot tell apart: be safe
        let name: String = inner
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name.is_empty() {
            return None;
        }
    }
    let lower = inner.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
    {
        return Some((Tag::Autolink(inner), close + 1));
    }
    if inner.contains('@') && !inner.contains(' ') {
        return Some((Tag::Autolink(inner), close + 1));
    }
    let name: String = lower
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    if name == "br" || name == "p" || name == "li" || name == "div" {
        return Some((Tag::Break, close + 1));
    }
    Some((Tag::Other, close + 1))
}

/// Builds the tree from headings with levels, and fills each node's section text (own lines
/// plus descendants').
fn build_tree(heads: Vec<MdHeading>) -> Vec<HeadingNode> {
    struct Open {
        level: usize,
        node: HeadingNode,
        own: Vec<String>,
    }
    fn close(open: Open) -> HeadingNode {
        let mut node = open.node;
        let mut text = open.own.join("\n");
        for child in &node.children {
            if let Some(t) = &child.text {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&child.title);
                text.push('\n');
                text.push_str(t);
            }
        }
        node.text = Some(text);
        node
    }
    let mut roots: Vec<HeadingNode> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let attach =
        |node: HeadingNode, stack: &mut Vec<Open>, roots: &mut Vec<HeadingNode>| match stack
            .last_mut()
        {
            Some(parent) => parent.node.children.push(node),
            None => roots.push(node),
        };
    for h in heads {
        while stack.last().is_some_and(|o| o.level >= h.level) {
            if let Some(o) = stack.pop() {
                let node = close(o);
                attach(node, &mut stack, &mut roots);
            }
        }
        stack.push(Open {
            level: h.level,
            node: HeadingNode {
                title: h.title,
                text: None,
                children: Vec::new(),
            },
            own: h.own,
        });
    }
    while let Some(o) = stack.pop() {
        let node = close(o);
        attach(node, &mut stack, &mut roots);
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(nodes: &[HeadingNode]) -> Vec<String> {
        nodes
            .iter()
            .map(|n| {
                if n.children.is_empty() {
                    n.title.clone()
                } else {
                    format!("{}[{}]", n.title, titles(&n.children).join(", "))
                }
            })
            .collect()
    }

    #[test]
    fn headings_inside_list_items_are_headings() {
        let (_, tree) =
            parse_markdown("# Terms\n\n1.  ### ELECTRONIC RECORDS\n\nText.\n\n2.  ### FEES\n");
        assert_eq!(tree.len(), 1);
        let titles: Vec<&str> = tree[0].children.iter().map(|h| h.title.as_str()).collect();
        assert_eq!(titles, ["ELECTRONIC RECORDS", "FEES"]);
    }

    #[test]
    fn atx_and_setext_headings_make_a_tree() {
        let md = "Nutzungsbedingungen\n===================\n\nIntro text.\n\n\
                  ### 1\\. Gegenstand\n\n1.1. Text one.\n\n#### Detail ####\n\nmore\n\n\
                  Zweiter Teil\n------------\n\nbody\n\n---\n\n# Anhang\n";
        let (text, tree) = parse_markdown(md);
        assert_eq!(
            titles(&tree),
            [
                "Nutzungsbedingungen[1. Gegenstand[Detail], Zweiter Teil]",
                "Anhang"
            ]
        );
        assert_eq!(
            text,
            "Nutzungsbedingungen\nIntro text.\n1. Gegenstand\n1.1. Text one.\nDetail\nmore\n\
             Zweiter Teil\nbody\nAnhang"
        );
        let root = &tree[0];
        assert_eq!(
            root.text.as_deref(),
            Some("Intro text.\n1. Gegenstand\n1.1. Text one.\nDetail\nmore\nZweiter Teil\nbody")
        );
    }

    #[test]
    fn thematic_break_after_blank_is_not_a_heading() {
        let (text, tree) = parse_markdown("Para\n\n---\n\nNext\n* * *\n");
        assert!(tree.is_empty());
        assert_eq!(text, "Para\nNext");
    }

    #[test]
    fn inline_syntax_is_removed() {
        assert_eq!(
            clean_inline("**Bold** and _it_ with [a link](https://x.y/(z)) and ![img](i.png)"),
            "Bold and it with a link and "
        );
        assert_eq!(clean_inline("a\\_b \\*c\\* 1\\. \\[x\\]"), "a_b *c* 1. [x]");
        assert_eq!(clean_inline("x<br>y</span> &amp; z"), "x\ny  & z");
        assert_eq!(
            clean_inline("mail <info@x.de> or <https://x.de>"),
            "mail info@x.de or https://x.de"
        );
        assert_eq!(
            clean_inline("[ref link][1] and [x] alone"),
            "ref link and [x] alone"
        );
        assert_eq!(clean_inline("`code` ~~gone~~"), "code gone");
        assert_eq!(clean_inline("a < b and c > d"), "a < b and c > d");
    }

    #[test]
    fn lists_tables_and_fences() {
        let md = "*   one\n    *   nested\n1. first\n2) second\n> quoted\n\n\
                  | A | B |\n| --- | --- |\n| x<br><br>*   y | z \\| w |\n\n```\ncode line\n```\n\
                  [1]: https://example.com\n";
        let (text, _) = parse_markdown(md);
        assert_eq!(
            text,
            "one\nnested\nfirst\nsecond\nquoted\nA\nB\nx\ny\nz | w\ncode line"
        );
    }

    #[test]
    fn list_line_before_dashes_is_not_setext() {
        let (_, tree) = parse_markdown("*   item\n---\n");
        assert!(tree.is_empty());
        let (_, tree) = parse_markdown("| a |\n| --- |\n");
        assert!(tree.is_empty());
    }

    #[test]
    fn manifest_parses_rows_and_references() {
        let m = "html\tgold\tlang\tgold_kind\n\
                 raw/ota/de/X.html\traw/ota/de/X.gt.md\tde\tmarkdown\n\
                 \n\
                 raw/sh/html/ab.html.gz\traw/sh/ground-truth.json#ab\ten\ttext\n";
        let e = parse_manifest(m, Path::new("/c")).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].id, "de/X");
        assert_eq!(e[0].group, "ota");
        assert_eq!(e[0].html, Path::new("/c/raw/ota/de/X.html"));
        assert_eq!(e[1].gold_key.as_deref(), Some("ab"));
        assert_eq!(e[1].gold, Path::new("/c/raw/sh/ground-truth.json"));
        assert_eq!(e[1].kind, GoldKind::Text);
        assert!(parse_manifest("a\tb\n", Path::new("/c")).is_err());
        assert!(parse_manifest("a\tb\tc\tpdf\n", Path::new("/c")).is_err());
    }

    #[test]
    fn json_gold_round_trip() {
        let j = r#"{"html": "raw/x/agb.html", "lang": "de", "first_words": "Allgemeine Geschäftsbedingungen",
            "last_words": "Stand: Januar 2024",
            "headings": [{"title": "§ 1 Geltung", "children": [{"title": "(1) Sub"}]}]}"#;
        let g: JsonGold = serde_json::from_str(j).unwrap();
        let gold = Gold::from_json(&g);
        assert_eq!(gold.first_tokens, ["allgemeine", "geschäftsbedingungen"]);
        assert_eq!(gold.last_tokens, ["stand", "januar", "2024"]);
        assert_eq!(
            titles(gold.headings.as_ref().unwrap()),
            ["§ 1 Geltung[(1) Sub]"]
        );
        assert!(gold.text.is_none());
        assert!(
            serde_json::from_str::<JsonGold>(
                r#"{"html":"x","lang":"de","first_words":"a",
            "last_words":"b","typo":1}"#
            )
            .is_err()
        );
    }
}

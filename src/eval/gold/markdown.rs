//! Markdown golds (Open Terms Archive, TOSBack): their text and heading tree.

use super::*;

/// A heading found in Markdown, with its level.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct MdHeading {
    pub(super) level: usize,
    pub(super) title: String,
    /// Text lines below the heading up to the next heading.
    pub(super) own: Vec<String>,
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
pub(super) fn atx_heading(line: &str) -> Option<(usize, &str)> {
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
pub(super) fn setext_level(line: &str) -> Option<usize> {
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
pub(super) fn is_thematic_break(line: &str) -> bool {
    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    chars.len() >= 3 && matches!(chars[0], '*' | '-' | '_') && chars.iter().all(|&c| c == chars[0])
}

/// `[label]: url`
pub(super) fn is_reference_definition(line: &str) -> bool {
    line.starts_with('[')
        && line
            .find("]:")
            .is_some_and(|p| !line[..p].contains('[') || p > 1)
}

pub(super) fn is_table_row(line: &str) -> bool {
    line.starts_with('|')
}

pub(super) fn is_table_delimiter(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
        && line.contains('-')
}

/// Cells of a table row, split at unescaped `|`.
pub(super) fn table_cells(line: &str) -> Vec<&str> {
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
pub(super) fn list_marker_len(line: &str) -> Option<usize> {
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
pub(super) fn clean_block(line: &str) -> String {
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

pub(super) fn strip_inline(s: &str) -> String {
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
pub(super) fn matching(chars: &[char], open: usize, o: char, c: char) -> Option<usize> {
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
pub(super) fn parse_link(chars: &[char], open: usize) -> Option<(String, usize)> {
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

pub(super) enum Tag {
    Break,
    Other,
    Autolink(String),
}

/// Parses an HTML tag or autolink at `open` (`<br>`, `</span>`, `<!-- … -->`, `<https://…>`).
pub(super) fn parse_tag(chars: &[char], open: usize) -> Option<(Tag, usize)> {
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
pub(super) fn build_tree(heads: Vec<MdHeading>) -> Vec<HeadingNode> {
    struct Open {
        level: usize,
        node: HeadingNode,
        own: Vec<String>,
    }
    pub(super) fn close(open: Open) -> HeadingNode {
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

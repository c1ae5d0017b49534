//! Reports of an [`EvalReport`]: the terminal table and the self-contained HTML report with
//! per-page side-by-side views.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

use super::measures::{self, Edge, HeadingNode, Prf};
use super::{EvalReport, PageResult, Summary};

fn f(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"))
}

fn edge_short(e: Edge) -> &'static str {
    match e {
        Edge::Correct => "ok",
        Edge::TooEarly => "early",
        Edge::TooLate => "late",
        Edge::ProcessingError => "ERR",
    }
}

fn counts(c: &super::EdgeCounts) -> String {
    Edge::ALL
        .iter()
        .map(|e| c.get(e).copied().unwrap_or(0).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

fn le_005(s: &Summary) -> usize {
    s.error_buckets.iter().take(2).sum()
}

fn summary_row(name: &str, s: &Summary) -> String {
    format!(
        "{name:<40} {:>5} {:>4} {:>7} {:>15} {:>15} {:>7} {:>7} {:>7} {:>6} {:>9}\n",
        s.pages,
        s.processing_errors,
        f(s.tokens.map(|p| p.f1)),
        counts(&s.start),
        counts(&s.end),
        f(s.headings.map(|p| p.f1)),
        f(s.parent_accuracy),
        f(s.error_score_mean),
        if s.heading_pages > 0 {
            format!("{}/{}", le_005(s), s.heading_pages)
        } else {
            "-".to_owned()
        },
        format!("{:.0}", s.mean_millis),
    )
}

/// The terminal report: one line per page, then the summary per group and overall, then the
/// error-score histogram.
pub fn terminal(r: &EvalReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<56} {:>5} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6}",
        "page", "start", "end", "tokF1", "headF1", "parent", "hscore", "ms"
    );
    for p in &r.pages {
        let h = p.hierarchy.as_ref();
        let id: String = if p.id.chars().count() > 56 {
            let tail: String =
                p.id.chars()
                    .rev()
                    .take(55)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
            format!("…{tail}")
        } else {
            p.id.clone()
        };
        let _ = writeln!(
            out,
            "{id:<56} {:>5} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6.0}{}",
            edge_short(p.start),
            edge_short(p.end),
            f(p.tokens.map(|t| t.f1)),
            f(h.map(|h| h.prf.f1)),
            f(h.and_then(|h| h.parent_accuracy)),
            f(h.map(|h| h.error_score)),
            p.millis,
            p.error
                .as_ref()
                .map(|e| format!("  [{e}]"))
                .unwrap_or_default(),
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<40} {:>5} {:>4} {:>7} {:>15} {:>15} {:>7} {:>7} {:>7} {:>6} {:>9}",
        "group",
        "pages",
        "err",
        "tokF1",
        "start c/e/l/x",
        "end c/e/l/x",
        "headF1",
        "parent",
        "hscore",
        "<=0.05",
        "ms/page"
    );
    for (g, s) in &r.groups {
        out.push_str(&summary_row(g, s));
    }
    out.push_str(&summary_row("OVERALL", &r.overall));
    let _ = writeln!(
        out,
        "\nstart/end classes: correct/too early/too late/processing error; tokF1 and headF1 are \
         page means; hscore is the paper's hierarchy error score (mean); OVERALL: real pages \
         (the written group is left out)."
    );
    let _ = writeln!(out, "error-score buckets (pages with gold headings):");
    for (label, n) in r.bucket_labels.iter().zip(&r.overall.error_buckets) {
        let _ = writeln!(out, "  {label:>11} {n:>4} {}", "#".repeat(*n));
    }
    if let Some(m) = r.overall.headings_micro {
        let _ = writeln!(
            out,
            "headings pooled: P {:.3} R {:.3} F1 {:.3}",
            m.precision, m.recall, m.f1
        );
    }
    if let Some(t) = r.overall.tokens {
        let _ = writeln!(
            out,
            "tokens (page mean): P {:.3} R {:.3} F1 {:.3} over {} pages",
            t.precision, t.recall, t.f1, r.overall.text_pages
        );
    }
    let _ = writeln!(out, "{} pages in {:.1} s", r.overall.pages, r.seconds);
    out.push_str(&types_table(&r.types));
    out
}

/// The document-type block of the terminal report: accuracy and legal-verdict rates per group,
/// then recall per type over all pages.
pub fn types_table(t: &super::TypesReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\ndocument types and legal verdict\n{:<40} {:>6} {:>8} {:>14} {:>14} {:>4}",
        "group", "typed", "accuracy", "legal flagged", "nonlegal recog", "err"
    );
    let row = |name: &str, s: &super::types::TypeSummary| {
        format!(
            "{name:<40} {:>6} {:>8} {:>14} {:>14} {:>4}\n",
            s.typed_pages,
            f(s.accuracy),
            count_rate(s.legal_flagged, s.legal_pages),
            count_rate(s.nonlegal_recognised, s.nonlegal_pages),
            s.processing_errors
        )
    };
    for (g, s) in &t.groups {
        out.push_str(&row(g, s));
    }
    out.push_str(&row("OVERALL", &t.overall));
    let _ = writeln!(
        out,
        "{:<40} {:>6} {:>8} {:>9}",
        "type (all groups)", "pages", "recall", "predicted"
    );
    for (name, r) in &t.overall.per_type {
        let _ = writeln!(
            out,
            "  {name:<38} {:>6} {:>8.3} {:>9}",
            r.pages, r.recall, r.predicted
        );
    }
    let _ = writeln!(
        out,
        "typed: pages with a labelled type; legal flagged: legal pages judged not legal; \
         nonlegal recog: non-legal pages judged not legal (see docs/eval.md)."
    );
    out
}

fn count_rate(n: usize, of: usize) -> String {
    if of == 0 {
        "-".to_owned()
    } else {
        format!("{n}/{of} {:.1}%", n as f64 * 100.0 / of as f64)
    }
}

// ---------------------------------------------------------------------------------------------
// HTML

/// Escapes text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const CSS: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#f0f0f0}td.l,th.l{text-align:left}
.correct{background:#c8efc8}.too_early{background:#ffe0a0}.too_late{background:#f7b7b7}
.processing_error{background:#999;color:#fff}
.good{background:#c8efc8}.mid{background:#fff3b0}.bad{background:#f7b7b7}
.cols{display:flex;gap:1em}.cols>div{flex:1;min-width:0}
pre{white-space:pre-wrap;word-wrap:break-word;background:#fafafa;border:1px solid #ddd;padding:.5em;
max-height:40em;overflow:auto;font-size:12px}
ul.tree{font-size:13px}li.m{color:#060}li.u{color:#b00}
mark{background:#ff0}small{color:#666}
";

fn score_class(x: Option<f64>) -> &'static str {
    match x {
        None => "",
        Some(v) if v >= 0.9 => "good",
        Some(v) if v >= 0.6 => "mid",
        Some(_) => "bad",
    }
}

fn err_class(x: Option<f64>) -> &'static str {
    match x {
        None => "",
        Some(v) if v <= 0.05 => "good",
        Some(v) if v <= 0.3 => "mid",
        Some(_) => "bad",
    }
}

fn edge_class(e: Edge) -> &'static str {
    match e {
        Edge::Correct => "correct",
        Edge::TooEarly => "too_early",
        Edge::TooLate => "too_late",
        Edge::ProcessingError => "processing_error",
    }
}

/// An inline SVG bar chart of the error-score buckets.
pub fn histogram_svg(labels: &[String], counts: &[usize]) -> String {
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    let (bw, gap, h, top, bottom) = (70.0, 12.0, 160.0, 20.0, 40.0);
    let width = counts.len() as f64 * (bw + gap) + gap;
    let mut svg = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{}' role='img' \
         aria-label='error score histogram'>",
        h + top + bottom
    );
    for (i, (label, &n)) in labels.iter().zip(counts).enumerate() {
        let x = gap + i as f64 * (bw + gap);
        let bh = h * n as f64 / max as f64;
        let y = top + h - bh;
        let colour = match i {
            0 => "#3a3",
            1 => "#8c4",
            2 => "#cc4",
            3 | 4 => "#e94",
            _ => "#d44",
        };
        let _ = write!(
            svg,
            "<rect x='{x}' y='{y}' width='{bw}' height='{bh}' fill='{colour}'/>\
             <text x='{}' y='{}' text-anchor='middle' font-size='12'>{n}</text>\
             <text x='{}' y='{}' text-anchor='middle' font-size='11'>{}</text>",
            x + bw / 2.0,
            y - 4.0,
            x + bw / 2.0,
            top + h + 16.0,
            esc(label)
        );
    }
    svg.push_str("</svg>");
    svg
}

fn summary_table(r: &EvalReport) -> String {
    let mut s = String::from(
        "<table><tr><th class=l>group</th><th>pages</th><th>errors</th><th>token P</th>\
         <th>token R</th><th>token F1</th><th>start correct/early/late/error</th>\
         <th>end correct/early/late/error</th><th>heading P</th><th>heading R</th>\
         <th>heading F1</th><th>parent acc.</th><th>error score</th><th>score ≤0.05</th>\
         <th>ms/page</th></tr>",
    );
    let row = |name: &str, x: &Summary| {
        let tp = x.tokens;
        let hp = x.headings;
        format!(
            "<tr><td class=l>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td class='{}'>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td class='{}'>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.0}</td></tr>",
            esc(name),
            x.pages,
            x.processing_errors,
            f(tp.map(|p| p.precision)),
            f(tp.map(|p| p.recall)),
            score_class(tp.map(|p| p.f1)),
            f(tp.map(|p| p.f1)),
            counts(&x.start),
            counts(&x.end),
            f(hp.map(|p| p.precision)),
            f(hp.map(|p| p.recall)),
            score_class(hp.map(|p| p.f1)),
            f(hp.map(|p| p.f1)),
            f(x.parent_accuracy),
            f(x.error_score_mean),
            if x.heading_pages > 0 {
                format!("{}/{}", le_005(x), x.heading_pages)
            } else {
                "-".into()
            },
            x.mean_millis
        )
    };
    for (g, x) in &r.groups {
        s.push_str(&row(g, x));
    }
    s.push_str(&row("overall", &r.overall).replace("<tr>", "<tr style='font-weight:bold'>"));
    s.push_str("</table>");
    s
}

fn page_file(i: usize) -> String {
    format!("{i:04}.html")
}

fn page_rows(r: &EvalReport, dir_name: &str) -> String {
    let mut s = String::from(
        "<table><tr><th>#</th><th class=l>page</th><th>lang</th><th>gold</th><th>start</th>\
         <th>end</th><th>token P</th><th>token R</th><th>token F1</th><th>headings ext/gold/matched</th>\
         <th>heading F1</th><th>parent acc.</th><th>error score</th><th>ms</th></tr>",
    );
    for (i, p) in r.pages.iter().enumerate() {
        let h = p.hierarchy.as_ref();
        let _ = write!(
            s,
            "<tr><td>{i}</td><td class=l><a href='{}/{}'>{}</a>{}</td><td>{}</td><td>{}</td>\
             <td class='{}'>{}</td><td class='{}'>{}</td><td>{}</td><td>{}</td>\
             <td class='{}'>{}</td><td>{}</td><td class='{}'>{}</td><td>{}</td>\
             <td class='{}'>{}</td><td>{:.0}</td></tr>",
            esc(dir_name),
            page_file(i),
            esc(&p.id),
            p.error
                .as_ref()
                .map(|e| format!(" <small>{}</small>", esc(e)))
                .unwrap_or_default(),
            esc(&p.lang),
            p.kind.name(),
            edge_class(p.start),
            p.start.label(),
            edge_class(p.end),
            p.end.label(),
            f(p.tokens.map(|t| t.precision)),
            f(p.tokens.map(|t| t.recall)),
            score_class(p.tokens.map(|t| t.f1)),
            f(p.tokens.map(|t| t.f1)),
            h.map_or("-".into(), |h| format!(
                "{}/{}/{}",
                h.extracted, h.gold, h.matched
            )),
            score_class(h.map(|h| h.prf.f1)),
            f(h.map(|h| h.prf.f1)),
            f(h.and_then(|h| h.parent_accuracy)),
            err_class(h.map(|h| h.error_score)),
            f(h.map(|h| h.error_score)),
            p.millis
        );
    }
    s.push_str("</table>");
    s
}

/// The main report page.
pub fn html_index(r: &EvalReport, dir_name: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!doctype html><html><head><meta charset='utf-8'><title>tcx eval</title>\
         <style>{CSS}</style></head><body><h1>tcx eval</h1>\
         <p>{} pages from <code>{}</code> in {:.1} s. Measures as in docs/algorithms.md (Measures); \
         token and heading scores are page means; start/end classes count pages \
         (correct/too early/too late/processing error).</p><h2>Summary</h2>{}\
         <h2>Hierarchy error score</h2><p>Pages whose gold has headings, by the paper's \
         buckets (0 is a perfect tree).</p>{}<h2>Pages</h2>{}</body></html>",
        r.overall.pages,
        esc(&r.corpus.display().to_string()),
        r.seconds,
        summary_table(r),
        histogram_svg(&r.bucket_labels, &r.overall.error_buckets),
        page_rows(r, dir_name)
    );
    s
}

/// Marks the gold opening and closing windows in the extracted text.
fn marked_text(text: &str, opening: &[String], closing: &[String]) -> String {
    let spans = measures::token_spans(text);
    let toks: Vec<String> = spans.iter().map(|(_, t)| t.clone()).collect();
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    if let Some(p) = measures::find_first(&toks, opening) {
        ranges.push(spans[p].0.start..spans[p + opening.len() - 1].0.end);
    }
    if let Some(p) = measures::find_last(&toks, closing) {
        ranges.push(spans[p].0.start..spans[p + closing.len() - 1].0.end);
    }
    ranges.sort_by_key(|r| r.start);
    let mut out = String::new();
    let mut at = 0;
    for r in ranges {
        if r.start < at {
            continue;
        }
        out.push_str(&esc(&text[at..r.start]));
        let _ = write!(out, "<mark>{}</mark>", esc(&text[r.clone()]));
        at = r.end;
    }
    out.push_str(&esc(&text[at..]));
    out
}

fn tree_html(nodes: &[HeadingNode], matched: &[bool], errors: Option<&[f64]>) -> String {
    fn walk(
        nodes: &[HeadingNode],
        matched: &[bool],
        errors: Option<&[f64]>,
        i: &mut usize,
        out: &mut String,
    ) {
        out.push_str("<ul class=tree>");
        for n in nodes {
            let k = *i;
            *i += 1;
            let cls = if matched.get(k).copied().unwrap_or(false) {
                "m"
            } else {
                "u"
            };
            let err = errors
                .and_then(|e| e.get(k))
                .map(|e| format!(" <small>[{e:.1}]</small>"))
                .unwrap_or_default();
            let _ = write!(out, "<li class={cls}>{}{err}", esc(&n.title));
            if !n.children.is_empty() {
                walk(&n.children, matched, errors, i, out);
            }
            out.push_str("</li>");
        }
        out.push_str("</ul>");
    }
    let mut out = String::new();
    if nodes.is_empty() {
        return "<p><i>no headings</i></p>".into();
    }
    walk(nodes, matched, errors, &mut 0, &mut out);
    out
}

fn prf_text(p: Option<Prf>) -> String {
    p.map_or("-".into(), |p| {
        format!("P {:.3} R {:.3} F1 {:.3}", p.precision, p.recall, p.f1)
    })
}

/// The side-by-side view of one page.
pub fn html_page(p: &PageResult, index_href: &str) -> String {
    let d = &p.detail;
    let opening = measures::opening(&d.gold.first_tokens);
    let closing = measures::closing(&d.gold.last_tokens);
    let h = p.hierarchy.as_ref();
    let ext_matched: Vec<bool> = h.map_or_else(Vec::new, |h| {
        h.matches.iter().map(Option::is_some).collect()
    });
    let gold_tree = d.gold.headings.clone().unwrap_or_default();
    let mut gold_matched = vec![false; measures::flatten(&gold_tree).len()];
    if let Some(h) = h {
        for g in h.matches.iter().flatten() {
            if let Some(m) = gold_matched.get_mut(*g) {
                *m = true;
            }
        }
    }
    let gold_text = match &d.gold.text {
        Some(t) => marked_text(t, opening, closing),
        None => format!(
            "<i>hand-labelled gold: first and last words only</i>\n\nopening: <mark>{}</mark>\n\
             closing: <mark>{}</mark>",
            esc(&opening.join(" ")),
            esc(&closing.join(" "))
        ),
    };
    let mut s = String::new();
    let _ = write!(
        s,
        "<!doctype html><html><head><meta charset='utf-8'><title>{id}</title><style>{CSS}</style>\
         </head><body><p><a href='{index}'>← report</a></p><h1>{id}</h1>\
         <p><code>{html}</code> · {lang} · gold {kind}{err}</p>\
         <p>start <span class='{sc}'>{sl}</span> · end <span class='{ec}'>{el}</span> · \
         tokens {tok} · headings {head} · parent acc. {par} · error score {es} · {ms:.0} ms</p>\
         <p><small>Highlighted: the gold's first and last 8 tokens where they occur. In the \
         trees, green headings are matched, red ones are not; [x] is a section's error.</small></p>\
         <div class=cols><div><h2>Extracted tree</h2>{et}</div><div><h2>Gold tree</h2>{gt}</div></div>\
         <div class=cols><div><h2>Extracted text</h2><pre>{etext}</pre></div>\
         <div><h2>Gold text</h2><pre>{gtext}</pre></div></div></body></html>",
        id = esc(&p.id),
        index = esc(index_href),
        html = esc(&p.html.display().to_string()),
        lang = esc(&p.lang),
        kind = p.kind.name(),
        err = p
            .error
            .as_ref()
            .map(|e| format!(" · <b>processing error:</b> {}", esc(e)))
            .unwrap_or_default(),
        sc = edge_class(p.start),
        sl = p.start.label(),
        ec = edge_class(p.end),
        el = p.end.label(),
        tok = prf_text(p.tokens),
        head = prf_text(h.map(|h| h.prf)),
        par = f(h.and_then(|h| h.parent_accuracy)),
        es = f(h.map(|h| h.error_score)),
        ms = p.millis,
        et = tree_html(
            &d.extracted_tree,
            &ext_matched,
            h.map(|h| h.section_errors.as_slice())
        ),
        gt = if d.gold.headings.is_some() {
            tree_html(&gold_tree, &gold_matched, None)
        } else {
            "<p><i>the gold has no headings</i></p>".into()
        },
        etext = marked_text(&d.extracted_text, opening, closing),
        gtext = gold_text,
    );
    s
}

/// Writes the report to `path` and the per-page views to `<stem>_pages/` beside it.
pub fn write_html(r: &EvalReport, path: &Path) -> Result<()> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("report")
        .to_owned();
    let dir_name = format!("{stem}_pages");
    let dir = path
        .parent()
        .map_or_else(|| Path::new(".").join(&dir_name), |p| p.join(&dir_name));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let index_href = format!(
        "../{}",
        path.file_name()
            .and_then(|s| s.to_str())
            .unwrap_or("report.html")
    );
    for (i, p) in r.pages.iter().enumerate() {
        let file = dir.join(page_file(i));
        std::fs::write(&file, html_page(p, &index_href))
            .with_context(|| format!("writing {}", file.display()))?;
    }
    std::fs::write(path, html_index(r, &dir_name))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_html() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn marks_opening_and_closing() {
        let open = measures::tokens("b c");
        let close = measures::tokens("e");
        assert_eq!(
            marked_text("a B, c <d> e", &open, &close),
            "a <mark>B, c</mark> &lt;d&gt; <mark>e</mark>"
        );
        assert_eq!(marked_text("x", &open, &close), "x");
    }

    #[test]
    fn histogram_has_a_bar_per_bucket() {
        let svg = histogram_svg(&measures::bucket_labels(), &[3, 1, 0, 0, 0, 0, 2]);
        assert_eq!(svg.matches("<rect").count(), 7);
        assert!(svg.contains("(0;0.05]"));
    }
}

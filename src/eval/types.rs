//! The document-type measure of `tcx eval`: which legal document each labelled page is
//! ([`tcx_core::classify_document`]) and whether it is a legal page at all
//! ([`tcx_core::legal_page_verdict`]), against the labels the corpus carries in its file names
//! and in `raw/legal_pages_index.csv` (see `docs/eval.md#document-types`).
//!
//! The label of a page ([`Labels::expected_type`]):
//! - a page listed in `raw/legal_pages_index.csv`: its `doc_type` column;
//! - Open Terms Archive and TOSBack pages, `<Service>__<Terms_type>.html`: `Privacy_Policy` →
//!   privacy, `Terms_of_Service` and other `…Terms…` → terms, `Imprint` → imprint,
//!   `Trackers_Policy` → cookies, anything else (`Community_Guidelines`,
//!   `Copyright_Claims_Policy` …) → other;
//! - ASDUS pages, `<Kind>__<site>`: `PP` → privacy, `TOS` → terms (`Misc` is unlabelled);
//! - the static shop mirrors by file name: `agb*`, `terms-*` → terms, `datenschutz*`,
//!   `privacy-policy`, `data-privacy` → privacy, `impressum`, `imprint` → imprint,
//!   `versandarten`, `zahlung-versand` → shipping_payment, `widerrufsrecht`, `ruecksendungen`,
//!   `refund-policy` → withdrawal, `other-policies` → other.
//!
//! A page is expected not to be legal when it is listed in `gold-nonlegal.tsv` or is a
//! scrapinghub news article; every other page of the corpus is a legal page.
//!
//! The addresses the Documents are built with are `file://` paths, so the address signal is
//! never used: the measure cannot read the answer from the file names.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;
use tcx_core::{
    AnalysisOptions, Document, DocumentType, TypeHints, classify_document, legal_page_verdict,
};

use super::gold::Entry;
use super::{EvalArgs, PageResult};

/// The labels of the corpus: `legal_pages_index.csv`'s types and the non-legal pages.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    /// `doc_type` per file path relative to `raw/`.
    index: HashMap<String, DocumentType>,
    /// The pages of `gold-nonlegal.tsv`, as corpus paths.
    nonlegal: HashSet<PathBuf>,
}

impl Labels {
    /// Reads `raw/legal_pages_index.csv` and `gold-nonlegal.tsv` of a corpus (each skipped
    /// when absent).
    pub fn load(corpus: &Path) -> Labels {
        let mut labels = Labels::default();
        if let Ok(text) = std::fs::read_to_string(corpus.join("raw/legal_pages_index.csv")) {
            labels.index = parse_index(&text);
        }
        if let Ok(text) = std::fs::read_to_string(corpus.join("gold-nonlegal.tsv")) {
            labels.nonlegal = text
                .lines()
                .skip(1)
                .filter_map(|l| l.split('\t').next())
                .filter(|p| !p.trim().is_empty())
                .map(|p| corpus.join(p.trim()))
                .collect();
        }
        labels
    }

    /// The type a page is labelled with, from the index or its file name (module docs).
    pub fn expected_type(&self, html: &Path) -> Option<DocumentType> {
        let path = html.to_string_lossy().replace('\\', "/");
        if let Some((_, rel)) = path.rsplit_once("/raw/")
            && let Some(&t) = self.index.get(rel)
        {
            return Some(t);
        }
        if !self.is_legal(html) {
            return None;
        }
        type_of_file_name(&path)
    }

    /// Whether a page is expected to be a legal page.
    pub fn is_legal(&self, html: &Path) -> bool {
        let path = html.to_string_lossy();
        !(self.nonlegal.contains(html) || path.contains("scrapinghub"))
    }
}

/// `doc_type` per file of `legal_pages_index.csv` (`file,source,lang,doc_type,…`; the source
/// column is quoted and may hold commas).
fn parse_index(text: &str) -> HashMap<String, DocumentType> {
    let mut out = HashMap::new();
    for line in text.lines().skip(1) {
        let cols = split_csv(line);
        if let (Some(file), Some(kind)) = (cols.first(), cols.get(3))
            && let Some(t) = index_type(kind)
        {
            out.insert(file.clone(), t);
        }
    }
    out
}

fn split_csv(line: &str) -> Vec<String> {
    let mut cols = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => cols.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    cols.push(cur);
    cols
}

/// The type of an index `doc_type` (`terms`, `cookies/trackers`, `returns/withdrawal` …).
fn index_type(kind: &str) -> Option<DocumentType> {
    Some(match kind.trim() {
        "terms" => DocumentType::Terms,
        "privacy" => DocumentType::Privacy,
        "imprint" => DocumentType::Imprint,
        "cookies/trackers" | "cookies" => DocumentType::Cookies,
        "shipping/payment" | "shipping_payment" => DocumentType::ShippingPayment,
        "returns/withdrawal" | "withdrawal" => DocumentType::Withdrawal,
        "" => return None,
        _ => DocumentType::Other,
    })
}

/// The type a corpus file name gives (module docs), `None` when it gives none.
pub fn type_of_file_name(path: &str) -> Option<DocumentType> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split(".html").next().unwrap_or(name);
    if path.contains("/asdus/") {
        return match stem.split("__").next() {
            Some("PP") => Some(DocumentType::Privacy),
            Some("TOS") => Some(DocumentType::Terms),
            _ => None,
        };
    }
    // The type is the last `__` part: service names may hold `__` themselves
    // ("Cabinet_Solutions__Inc.__Privacy_Policy").
    if let Some((_, kind)) = stem.rsplit_once("__") {
        let kind = kind.split('.').next().unwrap_or(kind).to_ascii_lowercase();
        return Some(if kind.contains("privacy") {
            DocumentType::Privacy
        } else if kind.contains("trackers") || kind.contains("cookie") {
            DocumentType::Cookies
        } else if kind.contains("imprint") {
            DocumentType::Imprint
        } else if kind.contains("terms") || kind.contains("conditions") {
            DocumentType::Terms
        } else {
            DocumentType::Other
        });
    }
    if !path.contains("/static-") {
        return None;
    }
    let s = stem.to_ascii_lowercase();
    Some(if s.starts_with("agb") || s.starts_with("terms") {
        DocumentType::Terms
    } else if s.starts_with("datenschutz") || s.contains("privacy") {
        DocumentType::Privacy
    } else if s.starts_with("impressum") || s.starts_with("imprint") {
        DocumentType::Imprint
    } else if s.starts_with("versand") || s.contains("zahlung") {
        DocumentType::ShippingPayment
    } else if s.starts_with("widerruf") || s.starts_with("ruecksendung") || s.contains("refund") {
        DocumentType::Withdrawal
    } else {
        DocumentType::Other
    })
}

/// The document type and legal verdict of one page against its labels.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TypeOutcome {
    /// The labelled type, when the page has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<DocumentType>,
    /// The type found (`None`: no signal).
    pub predicted: Option<DocumentType>,
    /// Its confidence.
    pub confidence: f64,
    /// Whether the page is labelled a legal page.
    pub legal_expected: bool,
    /// The verdict.
    pub is_legal: bool,
    /// The verdict's score.
    pub legal_score: f64,
}

impl TypeOutcome {
    /// Classifies an analysed page (its Document built with a `file://` address) against
    /// the labels of its file.
    pub fn of(doc: &Document, html: &Path, labels: &Labels) -> TypeOutcome {
        let info = classify_document(doc, &TypeHints::default());
        let verdict = legal_page_verdict(doc);
        TypeOutcome {
            expected: labels.expected_type(html),
            predicted: info.as_ref().map(|i| i.kind),
            confidence: info.map_or(0.0, |i| i.confidence),
            legal_expected: labels.is_legal(html),
            is_legal: verdict.is_legal,
            legal_score: verdict.score,
        }
    }
}

/// A page scored for its document type only (no text or heading gold).
#[derive(Debug, Clone, Serialize)]
pub struct TypePage {
    /// Short id (the path below the corpus).
    pub id: String,
    /// Reporting group.
    pub group: String,
    /// The HTML file.
    pub html: PathBuf,
    /// Why the page failed to process, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The outcome, when the page was analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<TypeOutcome>,
}

/// Recall of one type.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct TypeRecall {
    /// Pages labelled with the type.
    pub pages: usize,
    /// Of them, typed so.
    pub correct: usize,
    /// `correct / pages`.
    pub recall: f64,
    /// Pages typed so (right or wrong).
    pub predicted: usize,
}

/// Document-type and legal-verdict figures over a set of pages.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct TypeSummary {
    /// Pages with a labelled type (processing errors count as wrong).
    pub typed_pages: usize,
    /// Of them, typed right.
    pub correct: usize,
    /// `correct / typed_pages`.
    pub accuracy: Option<f64>,
    /// Per labelled type.
    pub per_type: BTreeMap<String, TypeRecall>,
    /// Analysed pages labelled legal.
    pub legal_pages: usize,
    /// Of them, judged not legal.
    pub legal_flagged: usize,
    /// `legal_flagged / legal_pages`.
    pub legal_flagged_rate: Option<f64>,
    /// Analysed pages labelled not legal.
    pub nonlegal_pages: usize,
    /// Of them, judged not legal.
    pub nonlegal_recognised: usize,
    /// `nonlegal_recognised / nonlegal_pages`.
    pub nonlegal_recognised_rate: Option<f64>,
    /// Pages that could not be analysed (no verdict).
    pub processing_errors: usize,
}

/// One page's part of a [`TypeSummary`]: its file, outcome and processing error.
#[derive(Clone, Copy)]
pub struct TypeItem<'a> {
    /// The HTML file.
    pub html: &'a Path,
    /// The outcome, when analysed.
    pub outcome: Option<&'a TypeOutcome>,
    /// Whether the page failed to process.
    pub failed: bool,
}

/// Aggregates the type outcomes of a set of pages; `labels` gives the expected type of a
/// page that failed to process.
pub fn summarize(items: &[TypeItem], labels: &Labels) -> TypeSummary {
    let mut s = TypeSummary::default();
    for item in items {
        let expected = item
            .outcome
            .map_or_else(|| labels.expected_type(item.html), |o| o.expected);
        let predicted = item.outcome.and_then(|o| o.predicted);
        if let Some(e) = expected {
            s.typed_pages += 1;
            let r = s.per_type.entry(e.name().to_owned()).or_default();
            r.pages += 1;
            if predicted == Some(e) {
                s.correct += 1;
                r.correct += 1;
            }
        }
        if let Some(p) = predicted
            && (expected.is_some() || item.outcome.is_some_and(|o| o.legal_expected))
        {
            s.per_type.entry(p.name().to_owned()).or_default().predicted += 1;
        }
        match item.outcome {
            Some(o) if o.legal_expected => {
                s.legal_pages += 1;
                s.legal_flagged += usize::from(!o.is_legal);
            }
            Some(o) => {
                s.nonlegal_pages += 1;
                s.nonlegal_recognised += usize::from(!o.is_legal);
            }
            None => {}
        }
        s.processing_errors += usize::from(item.failed);
    }
    for r in s.per_type.values_mut() {
        r.recall = ratio(r.correct, r.pages).unwrap_or(0.0);
    }
    s.accuracy = ratio(s.correct, s.typed_pages);
    s.legal_flagged_rate = ratio(s.legal_flagged, s.legal_pages);
    s.nonlegal_recognised_rate = ratio(s.nonlegal_recognised, s.nonlegal_pages);
    s
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| (a as f64 / b as f64 * 10_000.0).round() / 10_000.0)
}

/// The document-type part of the report: overall and per group.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct TypesReport {
    /// All pages of the run, those with text gold and the type-only ones.
    pub overall: TypeSummary,
    /// Per reporting group.
    pub groups: BTreeMap<String, TypeSummary>,
}

/// Scores one page's document type and legal verdict only.
pub fn evaluate_type_page(
    id: &str,
    group: &str,
    html: &Path,
    options: &AnalysisOptions,
    labels: &Labels,
) -> TypePage {
    let (error, outcome) = match super::analyze_file(html, options) {
        Ok(doc) => (None, Some(TypeOutcome::of(&doc, html, labels))),
        Err(e) => (Some(e), None),
    };
    TypePage {
        id: id.to_owned(),
        group: group.to_owned(),
        html: html.to_path_buf(),
        error,
        outcome,
    }
}

/// A type-only page of `--types`: its id, group and HTML file.
pub type TypeOnlyPage = (String, String, PathBuf);

/// The type-only pages of `--types`: the static mirrors (group `static-mirrors`) and the
/// pages of the type manifests (group: the manifest's file stem), without those already in
/// `entries` and without repeats.
pub fn type_only_pages(args: &EvalArgs, entries: &[Entry]) -> Result<Vec<TypeOnlyPage>> {
    let mut seen: std::collections::HashSet<PathBuf> =
        entries.iter().map(|e| e.html.clone()).collect();
    let mut out = Vec::new();
    let rel = |p: &Path| {
        p.strip_prefix(&args.corpus)
            .unwrap_or(p)
            .to_string_lossy()
            .into_owned()
    };
    let wanted = |p: &Path| {
        args.filter
            .as_ref()
            .is_none_or(|f| p.to_string_lossy().contains(f.as_str()))
    };
    for html in static_mirror_pages(&args.corpus) {
        if wanted(&html) && seen.insert(html.clone()) {
            out.push((rel(&html), "static-mirrors".to_owned(), html));
        }
    }
    let manifests: Vec<PathBuf> = if args.types_manifest.is_empty() {
        ["gold-legal.tsv", "gold-nonlegal.tsv"]
            .iter()
            .map(|m| args.corpus.join(m))
            .filter(|m| m.is_file())
            .collect()
    } else {
        args.types_manifest.clone()
    };
    for m in manifests {
        let group = m
            .file_stem()
            .map_or_else(|| "types".to_owned(), |s| s.to_string_lossy().into_owned());
        for e in super::gold::read_manifest(&m, &args.corpus)? {
            if wanted(&e.html) && seen.insert(e.html.clone()) {
                out.push((rel(&e.html), group.clone(), e.html));
            }
        }
    }
    Ok(out)
}

/// The document-type part of a report: every page of the run and the type-only pages, overall
/// and per group; `corpus`'s labels give the expected type of a page that failed to process.
pub fn report(corpus: &Path, pages: &[PageResult], type_pages: &[TypePage]) -> TypesReport {
    let labels = Labels::load(corpus);
    let items: Vec<(&str, TypeItem)> = pages
        .iter()
        .map(|p| {
            let item = TypeItem {
                html: &p.html,
                outcome: p.document_type.as_ref(),
                failed: p.error.is_some(),
            };
            (p.group.as_str(), item)
        })
        .chain(type_pages.iter().map(|p| {
            let item = TypeItem {
                html: &p.html,
                outcome: p.outcome.as_ref(),
                failed: p.error.is_some(),
            };
            (p.group.as_str(), item)
        }))
        .collect();
    let mut by_group: BTreeMap<&str, Vec<TypeItem>> = BTreeMap::new();
    for (g, item) in &items {
        by_group.entry(g).or_default().push(*item);
    }
    let all_items: Vec<TypeItem> = items.iter().map(|(_, i)| *i).collect();
    TypesReport {
        overall: summarize(&all_items, &labels),
        groups: by_group
            .into_iter()
            .map(|(g, v)| (g.to_owned(), summarize(&v, &labels)))
            .collect(),
    }
}

/// The static shop mirrors of a corpus: `raw/static-*/*/*.html`, sorted.
pub fn static_mirror_pages(corpus: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(sites) = std::fs::read_dir(corpus.join("raw")) else {
        return out;
    };
    for site in sites.flatten() {
        if !site.file_name().to_string_lossy().starts_with("static-") {
            continue;
        }
        let Ok(langs) = std::fs::read_dir(site.path()) else {
            continue;
        };
        for lang in langs.flatten().filter(|l| l.path().is_dir()) {
            let Ok(files) = std::fs::read_dir(lang.path()) else {
                continue;
            };
            out.extend(
                files
                    .flatten()
                    .map(|f| f.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "html")),
            );
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use DocumentType::*;

    #[test]
    fn file_names_give_the_labelled_type() {
        for (path, kind) in [
            (
                "raw/opentermsarchive-dating/de/Finya__Imprint.html",
                Some(Imprint),
            ),
            (
                "raw/opentermsarchive-dating/de/LOVOO__Privacy_Policy.HEAD-de-snapshot.html",
                Some(Privacy),
            ),
            ("raw/x/en/Tinder__Trackers_Policy.html", Some(Cookies)),
            ("raw/x/en/Bumble__Community_Guidelines.html", Some(Other)),
            ("legal/tosback/Slack__Developer_Terms.html.gz", Some(Terms)),
            (
                "legal/tosback/Cabinet_Solutions__Inc.__Privacy_Policy.html.gz",
                Some(Privacy),
            ),
            (
                "legal/tosback/Twitter__Terms_of_Service.html.gz",
                Some(Terms),
            ),
            ("legal/asdus/PP__uber.com.html.gz", Some(Privacy)),
            ("legal/asdus/TOS__BBCC.html.gz", Some(Terms)),
            ("legal/asdus/Misc__cbs.html.gz", None),
            ("raw/static-a/de/agb-uniqa.html", Some(Terms)),
            (
                "raw/static-a/de/datenschutzbestimmungen.html",
                Some(Privacy),
            ),
            ("raw/static-a/en/data-privacy.html", Some(Privacy)),
            ("raw/static-a/de/impressum.html", Some(Imprint)),
            (
                "raw/static-a/de/zahlung-versand.html",
                Some(ShippingPayment),
            ),
            ("raw/static-a/de/versandarten.html", Some(ShippingPayment)),
            ("raw/static-a/de/ruecksendungen.html", Some(Withdrawal)),
            ("raw/static-a/en/refund-policy.html", Some(Withdrawal)),
            ("raw/static-a/en/terms-of-service.html", Some(Terms)),
            ("raw/static-a/en/other-policies.html", Some(Other)),
            (
                "raw/scrapinghub-article-extraction-benchmark/html/ab12.html",
                None,
            ),
        ] {
            assert_eq!(type_of_file_name(path), kind, "{path}");
        }
    }

    #[test]
    fn the_index_labels_its_files_and_non_legal_pages_have_no_type() {
        let index = parse_index(
            "file,source,lang,doc_type,full_page\n\
             a/de/x.html,\"OTA (snapshots, versions)\",de,cookies/trackers,yes\n\
             b/de/versand.html,static,de,shipping/payment,yes\n\
             c/en/y.html,static,en,community-guidelines,yes\n",
        );
        assert_eq!(index.get("a/de/x.html"), Some(&Cookies));
        assert_eq!(index.get("b/de/versand.html"), Some(&ShippingPayment));
        assert_eq!(index.get("c/en/y.html"), Some(&Other));
        let labels = Labels {
            index,
            nonlegal: [PathBuf::from("/c/legal/asdus/Misc__8things.html.gz")]
                .into_iter()
                .collect(),
        };
        assert_eq!(
            labels.expected_type(Path::new("/c/raw/a/de/x.html")),
            Some(Cookies)
        );
        let article = Path::new("/c/legal/asdus/Misc__8things.html.gz");
        assert!(!labels.is_legal(article));
        assert_eq!(labels.expected_type(article), None);
        assert!(labels.is_legal(Path::new("/c/legal/asdus/PP__uber.com.html.gz")));
    }
}

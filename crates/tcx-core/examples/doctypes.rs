//! Development helper: types and legal verdicts of the pages listed on standard input
//! (`path<TAB>rest…` per line; `rest` is echoed), one tab-separated line per page.

use std::io::{BufRead, Write};
use std::sync::Mutex;

fn main() {
    let lines: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .map_while(Result::ok)
        .collect();
    let out = Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(line) = lines.get(i) else { break };
                    let (path, rest) = line.split_once('\t').unwrap_or((line, ""));
                    let Ok(bytes) = std::fs::read(path) else {
                        continue;
                    };
                    let html = tcx_core::decode(&bytes, None, None).text;
                    let row = match tcx_core::analyze(&html, &tcx_core::AnalysisOptions::default())
                    {
                        Ok(a) => {
                            let doc = tcx_core::Document::from_analysis(
                                a,
                                tcx_core::Source::default(),
                                String::new(),
                            );
                            if std::env::var_os("DUMP").is_some() {
                                let mut o = String::new();
                                tcx_core::Section::write_outline(&doc.sections, &mut o);
                                eprintln!("==== {path}\n{}", o);
                            }
                            if std::env::var_os("TIME").is_some() {
                            let t0 = std::time::Instant::now();
                            let _ = tcx_core::classify_document(&doc, &Default::default());
                            let t1 = t0.elapsed();
                            let _ = tcx_core::legal_page_verdict(&doc);
                            let t2 = t0.elapsed() - t1;
                            eprintln!("TIME\t{}\t{}\t{}", bytes.len(), t1.as_micros(), t2.as_micros());
                        }
                        let t = doc.document_type.as_ref();
                            let v = tcx_core::legal_page_verdict(&doc);
                        let mut whole = tcx_core::Section::new(None, None, 1);
                        whole.subsections = doc.sections.clone();
                        let vocab_only = tcx_core::classify_section(&whole)
                            .map_or("none", |t| t.kind.name());
                            let ev: Vec<String> = t
                                .map(|t| {
                                    t.evidence
                                        .iter()
                                        .map(|e| {
                                            format!(
                                                "{:?}:{}:{}={:.2}",
                                                e.source,
                                                e.kind.name(),
                                                e.phrase,
                                                e.weight
                                            )
                                        })
                                        .collect()
                                })
                                .unwrap_or_default();
                            format!(
                                "{i}\t{path}\t{rest}\t{}\t{:.2}\t{}\t{:.2}\t{}\t{}\t{}\t{vocab_only}",
                                t.map_or("none", |t| t.kind.name()),
                                t.map_or(0.0, |t| t.confidence),
                                v.is_legal,
                                v.score,
                                v.reason,
                                doc.title.as_deref().unwrap_or(""),
                                ev.join(" ; ")
                            )
                        }
                        Err(e) => format!("{i}\t{path}\t{rest}\terror\t0\tfalse\t0\t{e}\t\t"),
                    };
                    out.lock().unwrap().push(row);
                }
            });
        }
    });
    let mut rows = out.into_inner().unwrap();
    rows.sort_by_key(|r| r.split('\t').next().and_then(|n| n.parse::<usize>().ok()));
    let mut stdout = std::io::stdout().lock();
    for r in rows {
        let _ = writeln!(stdout, "{}", r.split_once('\t').map_or(r.as_str(), |x| x.1));
    }
}

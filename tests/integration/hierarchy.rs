//! Hierarchy extraction (issue 3): static styles, visual headings, enumerations, lists, tables
//! and several documents on one page, each rule with its own page.

use tcx_core::stages::enumeration::{self, Decoration, NumberKind};
use tcx_core::{AnalysisOptions, Section, analyze};

/// The section tree of a page whose body is `html`, with `<style>` sheets, through the whole
/// analysis ([`analyze`]): the path production runs.
fn tree(html: &str, css: &[&str]) -> Vec<Section> {
    let page = format!(
        "<html><head><style>{}</style></head><body><main>{html}</main></body></html>",
        css.join("\n")
    );
    analyze(&page, &AnalysisOptions::default())
        .expect("an analysable page")
        .sections
}

/// `title [children]` outline; untitled sections show as `<number>` (`<>` without one).
fn outline(sections: &[Section]) -> String {
    sections
        .iter()
        .map(|s| {
            let mut out = s
                .title
                .clone()
                .unwrap_or_else(|| format!("<{}>", s.number.clone().unwrap_or_default()));
            if !s.subsections.is_empty() {
                out.push_str(&format!(" [{}]", outline(&s.subsections)));
            }
            out
        })
        .collect::<Vec<_>>()
        .join(", ")
}

const LOREM: &str = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.";
const VERTRAG: &str =
    "Der Vertrag kommt mit der Annahme der Bestellung durch uns zustande und gilt unbefristet.";

#[test]
fn demo_shop_of_the_paper() {
    let html = include_str!("../fixtures/demo-shop.html");
    let a = analyze(
        html,
        &AnalysisOptions {
            threshold: 0.95,
            ..AnalysisOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        outline(&a.sections),
        "Terms and Conditions [1. Lorem Ipsum [1.1 Donec quam, 1.2 In enim justo, rhoncus], 2. Aenean leo]"
    );
    let lorem = &a.sections[0].subsections[0];
    assert_eq!(lorem.paragraphs.len(), 1);
    assert_eq!(lorem.subsections[0].paragraphs.len(), 1);
}

#[test]
fn a_heading_sized_a_little_below_the_next_tags_default_keeps_its_rank() {
    // The page sizes its `h2`s (18 px) but not its `h3`s, which keep the user-agent default
    // (18.72 px): so small a difference says nothing (the linked sheets that size the `h3`s
    // are not read), and the tags' order decides.
    let html = format!(
        "<h1>Privacy Policy</h1><h2>Owner and Data Controller</h2><p>{LOREM}</p><h2>Mode and \
         place of processing</h2><h3>Methods of processing</h3><p>{LOREM}</p><h3>Place</h3>\
         <p>{LOREM}</p><h2>Retention</h2><p>{LOREM}</p>"
    );
    let s = tree(&html, &["main h2 { font-size: 18px }"]);
    assert_eq!(
        outline(&s),
        "Privacy Policy [Owner and Data Controller, Mode and place of processing [Methods of \
         processing, Place], Retention]"
    );
    // A clear difference still outranks the tags: `h3`s drawn larger than the `h2`s rank above
    // them, so the `h2` after them nests under the last `h3`.
    let s = tree(
        &html,
        &["main h2 { font-size: 16px }", "main h3 { font-size: 22px }"],
    );
    assert_eq!(
        outline(&s),
        "Privacy Policy [Owner and Data Controller, Mode and place of processing, Methods of \
         processing, Place [Retention]]"
    );
}

#[test]
fn bold_titles_under_document_headings_below_a_page_title_head_sections() {
    // A seller's legal page: its title names no document, an `h2` per document, the AGB's
    // sections numbered in bold, the Widerrufsbelehrung's in bold without numbers.
    let html = format!(
        "<h1>Rechtliche Informationen des Verkäufers</h1><section><h2>Allgemeine \
         Geschäftsbedingungen</h2><p><b>§ 1 Geltungsbereich</b></p><p>(1) {VERTRAG}</p><p><b>§ 2 \
         Vertragsschluss</b></p><p>(1) {VERTRAG}</p></section><section><h2>Widerrufsbelehrung</h2>\
         <p><b>Widerrufsrecht</b></p><p>{VERTRAG}</p><p><b>Folgen des Widerrufs</b></p>\
         <p>{VERTRAG}</p></section>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Rechtliche Informationen des Verkäufers [Allgemeine Geschäftsbedingungen [§ 1 \
         Geltungsbereich, § 2 Vertragsschluss], Widerrufsbelehrung [Widerrufsrecht, Folgen des \
         Widerrufs]]"
    );
}

#[test]
fn bold_paragraph_titles_without_heading_tags() {
    let html = format!(
        "<div><p><b>Geltungsbereich</b></p><p>{VERTRAG}</p><p><strong>Vertragsschluss</strong></p><p>{VERTRAG}</p>\
         <p><b>Lieferung</b></p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Geltungsbereich, Vertragsschluss, Lieferung");
    assert_eq!(s[1].paragraphs, [VERTRAG]);
}

#[test]
fn bold_lines_between_line_breaks_under_the_h1_are_titles() {
    // An imprint written as one box of lines: `<b>` titles, `<br>` between the lines. The
    // lines share their box, which also holds the `h1`; that must not make them subordinate
    // to nothing (HEPS C1 looks at each title's own run of lines).
    let html = "<div class=content><h1>Impressum</h1><b>Angaben gemäß § 5 TMG</b><br>\
        Holzwerk Becker GmbH<br>Lindenstraße 27, 49074 Osnabrück<br><br><b>Kontakt</b><br>\
        Telefon: 0541 9876540<br>E-Mail: info@holzwerk.example<br><br><b>Haftung für \
        Inhalte</b><br>Als Diensteanbieter sind wir gemäß § 7 Abs. 1 TMG für eigene Inhalte auf \
        diesen Seiten nach den allgemeinen Gesetzen verantwortlich.</div>";
    assert_eq!(
        outline(&tree(html, &[])),
        "Impressum [Angaben gemäß § 5 TMG, Kontakt, Haftung für Inhalte]"
    );
}

#[test]
fn a_page_title_naming_the_first_document_holds_the_documents() {
    // A JTL shop's AGB page: the theme's `h1` "AGB", then the documents as `h2`s, the first
    // of them the AGB again. The three documents are siblings under the page's title.
    let html = format!(
        "<div id=content><h1>AGB</h1><div class=link_content><h2>Allgemeine \
         Geschäftsbedingungen</h2><p>1.1 {VERTRAG}</p><p>1.2 {VERTRAG}</p><h2>Widerrufsbelehrung</h2>\
         <p>Sie haben das Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu \
         widerrufen.</p><h2>Muster-Widerrufsformular</h2><p>(*) Unzutreffendes streichen.</p>\
         </div></div>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "AGB [Allgemeine Geschäftsbedingungen, Widerrufsbelehrung, Muster-Widerrufsformular]"
    );
}

#[test]
fn a_heading_tag_between_numbered_bold_titles_parts_them() {
    // Wix-like CGV: `h2` parts, bold "Article n" lines (untagged: the tags are the structure
    // here, so the articles are numbered body-style titles) continuing across the parts.
    let para = "Les prix sont indiqués en euros toutes taxes comprises et la commande est \
                confirmée par e-mail.";
    let html = format!(
        "<h1>Conditions Générales de Vente</h1><h2>Préambule</h2><p><b>Article 1 - \
         Produits</b></p><p>{para}</p><p><b>Article 2 - Prix</b></p><p>{para}</p><h2>Commande \
         et paiement</h2><p><b>Article 3 - Commande</b></p><p>{para}</p><p><b>Article 4 - \
         Paiement</b></p><p>{para}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Conditions Générales de Vente [Préambule [Article 1 - Produits, Article 2 - Prix], \
         Commande et paiement [Article 3 - Commande, Article 4 - Paiement]]"
    );
}

#[test]
fn a_section_named_after_its_own_document_holds_nothing() {
    // eRecht24's privacy policy: the `h3` "Datenschutz" is the first section of "1.
    // Allgemeine Hinweise", beside the `h3`s after it, not a document holding them.
    let html = "<h1>Datenschutzerklärung</h1><h2>1. Allgemeine Hinweise und \
        Pflichtinformationen</h2><h3>Datenschutz</h3><p>Die Betreiber dieser Seiten nehmen den \
        Schutz Ihrer persönlichen Daten sehr ernst.</p><h3>Hinweis zur verantwortlichen \
        Stelle</h3><p>Die verantwortliche Stelle für die Datenverarbeitung auf dieser Website \
        ist die Muster GmbH.</p><h3>Widerspruchsrecht</h3><p>Sie haben jederzeit das Recht, \
        gegen die Verarbeitung Ihrer Daten Widerspruch einzulegen.</p><h2>2. Datenerfassung auf \
        dieser Website</h2><p>Die Datenverarbeitung auf dieser Website erfolgt durch den \
        Websitebetreiber.</p>";
    assert_eq!(
        outline(&tree(html, &[])),
        "Datenschutzerklärung [1. Allgemeine Hinweise und Pflichtinformationen [Datenschutz, \
         Hinweis zur verantwortlichen Stelle, Widerspruchsrecht], 2. Datenerfassung auf dieser \
         Website]"
    );
}

#[test]
fn questions_set_apart_are_section_titles() {
    // A generated privacy policy: each title a bold, larger question in a `div` of its own.
    let text = "<div><span style=\"font-size: 15px\">We process your personal information for \
                a variety of reasons, depending on how you interact with our Services.</span></div>";
    let titles = [
        "What information do we collect?",
        "How do we use your information?",
        "How long do we keep it?",
    ];
    let html: String = std::iter::once(format!("<h1>Privacy Policy</h1>{text}"))
        .chain(titles.iter().map(|t| {
            format!("<div><strong><span style=\"font-size: 19px\">{t}</span></strong></div>{text}")
        }))
        .collect();
    assert_eq!(
        outline(&tree(&html, &[])),
        format!("Privacy Policy [{}]", titles.join(", "))
    );
}

#[test]
fn lines_a_class_names_a_title_are_section_titles() {
    // The site's sheet that sets `.policy-section__title` apart is an external file; the class
    // name says what the line is. A class that names no title leaves a line as text, and the
    // page's own rule for the class still decides.
    // Each section's text is a list (no plain title line: that asks for a paragraph after it).
    let text = "<ul><li><p>We use the information we collect to provide, maintain and improve \
                our services, and to protect our users.</p></li></ul>";
    let titles = [
        "Information we collect",
        "How we use information",
        "Your choices",
    ];
    let section = |class: &str| -> String {
        titles
            .iter()
            .map(|t| {
                format!(
                    "<section><header><div class=\"{class}\">{t}</div></header>{text}</section>"
                )
            })
            .collect()
    };
    let html = format!(
        "<h1>Privacy Policy</h1>{}",
        section("policy-section__title")
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        format!(
            "Privacy Policy [{}]",
            titles.map(|t| format!("{t} [<>]")).join(", ")
        )
    );
    let html = format!(
        "<h1>Privacy Policy</h1>{}",
        section("policy-section__label")
    );
    let untitled = outline(&tree(&html, &[]));
    assert!(!untitled.contains("Your choices"), "{untitled}");
    let html = format!("<h1>Privacy Policy</h1>{}", section("section-title"));
    let css = [".section-title { font-weight: normal }"];
    let overridden = outline(&tree(&html, &css));
    assert!(!overridden.contains("Your choices"), "{overridden}");
}

#[test]
fn a_summary_titles_its_details() {
    // A `<details>`'s `<summary>` titles its text, under the `h2` it stands in.
    let text = "<p>We rely on performance of a contract to provide the service and on consent \
                for marketing emails.</p>";
    let html = format!(
        "<h1>Privacy Policy</h1><h2>How we use information</h2>{text}<details><summary>Legal \
         bases</summary>{text}</details><details><summary>California notice</summary>{text}\
         </details>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Privacy Policy [How we use information [Legal bases, California notice]]"
    );
}

#[test]
fn a_line_of_jump_links_to_the_documents_is_no_title() {
    // A page holding three documents opens with links to each; the line names documents but
    // is a table of contents.
    let html = format!(
        "<h1>AGB, Widerrufsbelehrung &amp; Datenschutz</h1><p><a href=#agb>Allgemeine \
         Geschäftsbedingungen</a> | <a href=#widerruf>Widerrufsbelehrung</a> | <a \
         href=#datenschutz>Datenschutzerklärung</a></p><h2 id=agb>Allgemeine \
         Geschäftsbedingungen</h2><h3>1. Geltungsbereich</h3><p>{VERTRAG}</p><h2 \
         id=widerruf>Widerrufsbelehrung</h2><h3>Widerrufsrecht</h3><p>{VERTRAG}</p><h2 \
         id=datenschutz>Datenschutzerklärung</h2><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "AGB, Widerrufsbelehrung & Datenschutz [Allgemeine Geschäftsbedingungen [1. \
         Geltungsbereich], Widerrufsbelehrung [Widerrufsrecht], Datenschutzerklärung]"
    );
}

#[test]
fn a_themes_h1_over_the_documents_own_h1_holds_it() {
    // WordPress: the entry title "Datenschutz" as the theme's `h1`, then the generator's own
    // `h1` "Datenschutzerklärung" in the entry content: one root.
    let html = format!(
        "<article><header class=entry-header><h1>Datenschutz</h1></header><div \
         class=entry-content><h1>Datenschutzerklärung</h1><h2>1. Datenschutz auf einen \
         Blick</h2><p>{VERTRAG}</p><h2>2. Hosting</h2><p>{VERTRAG}</p></div></article>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Datenschutz [Datenschutzerklärung [1. Datenschutz auf einen Blick, 2. Hosting]]"
    );
}

#[test]
fn a_bold_closing_line_heads_nothing() {
    let html = "<h1>Widerrufsbelehrung</h1><p><b>Widerrufsrecht</b></p><p>Sie haben das Recht, \
        binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen.</p><p><b>Folgen \
        des Widerrufs</b></p><p>Wenn Sie diesen Vertrag widerrufen, haben wir Ihnen alle Zahlungen \
        unverzüglich zurückzuzahlen.</p><p><b>Ende der Widerrufsbelehrung</b></p>";
    let sections = tree(html, &[]);
    assert_eq!(
        outline(&sections),
        "Widerrufsbelehrung [Widerrufsrecht, Folgen des Widerrufs]"
    );
    let last = &sections[0].subsections[1];
    assert_eq!(
        last.paragraphs.last().map(String::as_str),
        Some("Ende der Widerrufsbelehrung")
    );
}

#[test]
fn bold_paragraph_titles_under_two_title_tags_at_the_top() {
    // The theme's page title and the document's own `h1` open the page; the sections are
    // bold paragraphs. Heading tags only at the top say nothing about how the sections are
    // marked up, so the bold titles head them.
    let html = format!(
        "<h1>Datenschutz</h1><h1>Datenschutzerklärung</h1><p>{VERTRAG}</p><p><b>Name und Anschrift des Verantwortlichen</b></p><p>{VERTRAG}</p>\
         <p><b>Datenlöschung und Speicherdauer</b></p><p>{VERTRAG}</p><p><b>Ihre Rechte</b></p><p>{VERTRAG}</p>"
    );
    let s = tree(&html, &[]);
    let o = outline(&s);
    assert_eq!(
        o,
        "Datenschutz [Datenschutzerklärung [Name und Anschrift des Verantwortlichen, \
         Datenlöschung und Speicherdauer, Ihre Rechte]]"
    );
    // With a tag heading among the sections, the author marked sections up with tags: bold
    // lines are emphasis.
    let html = format!(
        "<h1>Datenschutzerklärung</h1><p>{VERTRAG}</p><p><b>Wichtig für Sie</b></p><p>{VERTRAG}</p>\
         <h2>Ihre Rechte</h2><p>{VERTRAG}</p><p><b>Bitte beachten</b></p><p>{VERTRAG}</p>"
    );
    let o = outline(&tree(&html, &[]));
    assert!(!o.contains("Wichtig") && o.contains("Ihre Rechte"), "{o}");
}

#[test]
fn div_section_title_styled_by_a_style_rule() {
    let css = ".legal .section-title { font-size: 1.2em; font-weight: 600 } .legal .sub { font-weight: bold }";
    let html = format!(
        "<div class=legal><div class=section-title>Allgemeines</div><div>{LOREM}</div>\
         <div class=sub>Anwendungsbereich</div><div>{LOREM}</div><div class=sub>Sprache</div><div>{LOREM}</div>\
         <div class=section-title>Zahlung</div><div>{LOREM}</div></div>"
    );
    let s = tree(&html, &[css]);
    assert_eq!(
        outline(&s),
        "Allgemeines [Anwendungsbereich, Sprache], Zahlung"
    );
    // Without the sheet the class still names the section titles (bold by default); the
    // `.sub` lines, named and styled by nothing, are text where the author drew headings.
    assert_eq!(outline(&tree(&html, &[])), "Allgemeines, Zahlung");
}

#[test]
fn section_sign_titles_with_numbered_clauses_as_paragraphs() {
    let html = "<div><p>§ 1 Geltungsbereich</p>\
        <p>(1) Diese Geschäftsbedingungen gelten für alle Verträge zwischen uns und dem Kunden.</p>\
        <p>(2) Abweichende Bedingungen des Kunden gelten nur, wenn wir ihnen zustimmen.</p>\
        <p>§ 2 Vertragsschluss</p><p>(1) Die Darstellung der Produkte ist kein bindendes Angebot.</p>\
        <p>(2) Mit der Bestellung gibt der Kunde ein verbindliches Angebot ab, das wir annehmen.</p></div>";
    let s = tree(html, &[]);
    assert_eq!(outline(&s), "§ 1 Geltungsbereich, § 2 Vertragsschluss");
    assert_eq!(s[0].number.as_deref(), Some("§ 1"));
    assert_eq!(s[0].paragraphs.len(), 2);
    assert!(s[1].paragraphs[1].starts_with("(2) Mit der Bestellung"));
}

#[test]
fn roman_parts_with_numbered_sections() {
    let html = format!(
        "<div><h2>I. Allgemeine Geschäftsbedingungen</h2><h3>1. Geltung</h3><p>{VERTRAG}</p>\
         <h3>2. Vertragsschluss</h3><p>{VERTRAG}</p><h2>II. Kundeninformationen</h2><h3>1. Identität</h3><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "I. Allgemeine Geschäftsbedingungen [1. Geltung, 2. Vertragsschluss], II. Kundeninformationen [1. Identität]"
    );
    // The same with bold paragraphs only: the Roman class is open above the Arabic one.
    let html = format!(
        "<div><p><b>I. Allgemeine Geschäftsbedingungen</b></p><p><b>1. Geltung</b></p><p>{VERTRAG}</p>\
         <p><b>2. Vertragsschluss</b></p><p>{VERTRAG}</p><p><b>II. Kundeninformationen</b></p><p><b>1. Identität</b></p><p>{VERTRAG}</p></div>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "I. Allgemeine Geschäftsbedingungen [1. Geltung, 2. Vertragsschluss], II. Kundeninformationen [1. Identität]"
    );
}

#[test]
fn table_of_contents_at_the_top_is_text() {
    let html = format!(
        "<div><p>Inhalt</p><p>1. Geltungsbereich</p><p>2. Vertragsschluss</p><p>3. Preise</p>\
         <p>1. Geltungsbereich</p><p>{VERTRAG}</p><p>2. Vertragsschluss</p><p>{VERTRAG}</p><p>3. Preise</p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "<>, 1. Geltungsbereich, 2. Vertragsschluss, 3. Preise"
    );
    assert_eq!(s[0].paragraphs.len(), 4, "{:?}", s[0].paragraphs);
    assert_eq!(s[1].paragraphs, [VERTRAG]);
}

#[test]
fn shipping_cost_table_becomes_rows() {
    let html = format!(
        "<div><h2>Versandkosten</h2><p>{VERTRAG}</p><table><thead><tr><th>Land</th><th>Versandkosten</th><th>Lieferzeit</th></tr></thead>\
         <tbody><tr><td>Deutschland</td><td>4,90 €</td><td>2–3 Tage</td></tr><tr><td><b>Österreich</b></td><td><b>9,90 €</b></td><td>4–5 Tage</td></tr></tbody></table>\
         <h2>Zahlung</h2><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Versandkosten, Zahlung");
    assert_eq!(
        s[0].paragraphs,
        [
            VERTRAG,
            "Land: Deutschland; Versandkosten: 4,90 €; Lieferzeit: 2–3 Tage",
            "Land: Österreich; Versandkosten: 9,90 €; Lieferzeit: 4–5 Tage"
        ]
    );
}

#[test]
fn bold_words_inside_a_sentence_are_not_headings() {
    let html = format!(
        "<div><p>Der Kunde kann <b>innerhalb von 14 Tagen</b> widerrufen. {VERTRAG}</p>\
        <p><b>Bitte beachten Sie</b> die Hinweise unten. {VERTRAG}</p><p><b>Wichtig:</b> Rücksendungen sind frei.</p>\
        <p>Die Ware bleibt <strong>bis zur vollständigen Bezahlung</strong> unser Eigentum.</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "<>");
    assert_eq!(s[0].paragraphs.len(), 4);
}

#[test]
fn text_after_a_list_stays_with_its_section() {
    let html = format!(
        "<div><h2>Zahlung</h2><p>Wir bieten folgende Zahlungsarten an:</p><ul><li>Vorkasse</li><li>PayPal<ul><li>mit Konto</li></ul></li><li>Rechnung</li></ul>\
         <p>Bei Vorkasse liefern wir nach Zahlungseingang.</p><h2>Lieferung</h2><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Zahlung [<>, <> [<>], <>, <>], Lieferung");
    let z = &s[0];
    assert_eq!(z.paragraphs, ["Wir bieten folgende Zahlungsarten an:"]);
    assert_eq!(z.subsections[1].paragraphs, ["PayPal"]);
    assert_eq!(z.subsections[1].subsections[0].paragraphs, ["mit Konto"]);
    assert_eq!(
        z.subsections[3].paragraphs,
        ["Bei Vorkasse liefern wir nach Zahlungseingang."]
    );
    assert_eq!(s[1].paragraphs, [VERTRAG]);
}

#[test]
fn heading_tags_holding_paragraphs_are_not_headings() {
    let long = "Mit der Nutzung dieser Website erklären Sie sich mit den folgenden Bedingungen einverstanden, die wir jederzeit ohne vorherige Ankündigung ändern können, soweit dies für Sie zumutbar ist und Ihre Rechte nicht beeinträchtigt werden.";
    let html = format!(
        "<div><h1>AGB</h1><h4>{long}</h4><h2>1. Geltung</h2><p>{VERTRAG} {VERTRAG}</p><h2>2. Preise</h2><p>{VERTRAG} {VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "AGB [1. Geltung, 2. Preise]");
    assert_eq!(s[0].paragraphs, [long]);
}

#[test]
fn link_only_lines_are_not_headings() {
    let html = format!(
        "<div><p><b>Geltung</b></p><p>{VERTRAG}</p><p><a href=agb.pdf>AGB als PDF herunterladen</a></p>\
         <p><b>Preise</b></p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Geltung, Preise");
    assert_eq!(s[0].paragraphs[1], "AGB als PDF herunterladen");
}

#[test]
fn several_documents_on_one_page_are_siblings() {
    let html = format!(
        "<div><h1>Allgemeine Geschäftsbedingungen</h1><h3>§ 1 Geltung</h3><p>{VERTRAG}</p><h3>§ 2 Preise</h3><p>{VERTRAG}</p>\
         <h3>Kundeninformationen</h3><p>{VERTRAG}</p><h2>Widerrufsbelehrung</h2><h3>Widerrufsrecht</h3><p>{VERTRAG}</p>\
         <h3>Folgen des Widerrufs</h3><p>{VERTRAG}</p><h3>Muster-Widerrufsformular</h3><p>{VERTRAG}</p>\
         <p>Datenschutzerklärung</p><p>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    // Visual evidence outranks the vocabulary (issue 12): "Kundeninformationen" and
    // "Muster-Widerrufsformular" are `h3` like the sections of the document before them, so
    // they are its sections; the `h2` "Widerrufsbelehrung" and the plain "Datenschutzerklärung"
    // (no heading look of its own: the vocabulary breaks the tie) are documents.
    assert_eq!(
        outline(&s),
        "Allgemeine Geschäftsbedingungen [§ 1 Geltung, § 2 Preise, Kundeninformationen], \
         Widerrufsbelehrung [Widerrufsrecht, Folgen des Widerrufs, Muster-Widerrufsformular], \
         Datenschutzerklärung"
    );
}

/// Minimal CSV reader (RFC 4180 quoting) for the clause corpus.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[test]
fn enumeration_detector_on_real_german_agb_titles() {
    let Some(corpus) = crate::corpus::corpus_dir() else {
        return;
    };
    let path = corpus.join("raw/agb-de-clauses/agb-de-anonym.csv");
    let text = std::fs::read_to_string(&path).expect("the corpus's clause titles");
    let records = csv_records(&text);
    let header = &records[0];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (contract, title) = (col("contract"), col("title"));
    let number = regex::Regex::new(r"^(§\s*)?(\d{1,3}(?:\.\d{1,3})*)\.?(?:\s|$)").unwrap();
    let (mut checked, mut numbered, mut pairs, mut successors) = (0, 0, 0, 0);
    let mut prev: Option<(String, enumeration::Enumeration)> = None;
    let mut last_title = String::new();
    for r in &records[1..] {
        let (Some(c), Some(t)) = (r.get(contract), r.get(title)) else {
            continue;
        };
        let t = t.trim();
        if t.is_empty() || t == last_title {
            continue; // several clauses share one title
        }
        last_title = t.to_owned();
        checked += 1;
        let found = enumeration::detect(t);
        if let Some(m) = number.captures(t) {
            let values: Vec<u32> = m[2].split('.').map(|v| v.parse().unwrap()).collect();
            let e = found
                .clone()
                .unwrap_or_else(|| panic!("no enumeration in {t:?}"));
            assert_eq!(e.values, values, "{t:?}");
            assert_eq!(e.kind, NumberKind::Arabic, "{t:?}");
            if m.get(1).is_some() {
                assert_eq!(e.decoration, Decoration::Section, "{t:?}");
            }
        }
        if let Some(e) = found {
            numbered += 1;
            if let Some((pc, pe)) = &prev
                && pc == c
                && pe.class() == e.class()
            {
                pairs += 1;
                successors += usize::from(e.is_successor_of(pe));
            }
            prev = Some((c.clone(), e));
        }
    }
    assert!(checked > 500, "{checked} titles");
    assert!(
        numbered * 2 > checked,
        "{numbered} of {checked} titles numbered"
    );
    // Consecutive titles of one class in one contract mostly follow each other.
    assert!(
        successors * 10 >= pairs * 8,
        "{successors} successors of {pairs} pairs"
    );
}

#[test]
fn titles_interrupting_a_numbered_sequence_belong_to_the_clause_before() {
    // novogenia/agb: bold "9." then bold unnumbered sub-titles, then "10.".
    let mut html = String::from("<h1>Allgemeine Geschäftsbedingungen</h1>");
    html.push_str("<p><b>Allgemeine Geschäftsbedingungen der Muster GmbH</b></p>");
    for (n, t) in [
        (7, "Lieferung"),
        (8, "Datenschutz"),
        (9, "Regelungen für alle"),
    ] {
        html.push_str(&format!("<p><b>{n}. {t}</b></p><p>{VERTRAG}</p>"));
    }
    for t in ["Dauer der Vereinbarung", "Einseitige Änderung"] {
        html.push_str(&format!("<p><strong>{t}</strong><br>{VERTRAG}</p>"));
    }
    html.push_str(&format!(
        "<p><b>10. Gläubigerverzug</b></p><p>{VERTRAG}</p>"
    ));
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "Allgemeine Geschäftsbedingungen [Allgemeine Geschäftsbedingungen der Muster GmbH \
         [7. Lieferung, 8. Datenschutz, 9. Regelungen für alle [Dauer der Vereinbarung, \
         Einseitige Änderung], 10. Gläubigerverzug]]"
    );
}

#[test]
fn a_document_inside_a_numbered_clause_stays_in_it() {
    // bildblatt/agb: the Widerrufsbelehrung sits inside § 6, the form inside § 7.
    let html = format!(
        "<h1>AGB</h1><p>Allgemeine Geschäftsbedingungen der Muster GmbH</p>\
         <p>§1 Geltung</p><p>{VERTRAG}</p>\
         <p>§2 Zustandekommen eines Vertrages</p><p>(1) {VERTRAG}</p>\
         <p><b>(2) Im Falle des Vertragsschlusses kommt der Vertrag mit</b></p><div>Muster GmbH<br>Musterstraße 1</div><p>zustande.</p>\
         <p>Die Bestellung erfolgt in folgenden Schritten:</p><div>1) Auswahl der Ware<br>2) Bestätigen der Bestellung<br>3) Prüfung der Angaben<br>4) Betätigung des Buttons</div>\
         <p>§3 Preise</p><p>{VERTRAG}</p>\
         <p>§6 Widerrufsrecht</p><p><b>Widerrufsrecht für Verbraucher</b><br><br>{VERTRAG}</p>\
         <p>Widerrufsbelehrung</p><p><br><b>Widerrufsrecht</b><br><br>{VERTRAG}<br><br><b>Widerrufsfolgen</b><br><br>{VERTRAG}</p>\
         <p>§7 Widerrufsformular</p><p>Muster-Widerrufsformular</p><p>{VERTRAG}</p>\
         <p>§8 Gewährleistung</p><p>{VERTRAG}</p>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "AGB [Allgemeine Geschäftsbedingungen der Muster GmbH [§1 Geltung, \
         §2 Zustandekommen eines Vertrages [1) Auswahl der Ware, 2) Bestätigen der Bestellung, \
         3) Prüfung der Angaben, 4) Betätigung des Buttons], §3 Preise, \
         §6 Widerrufsrecht [Widerrufsrecht für Verbraucher, Widerrufsbelehrung \
         [Widerrufsrecht, Widerrufsfolgen]], §7 Widerrufsformular [Muster-Widerrufsformular], \
         §8 Gewährleistung]]"
    );
}

#[test]
fn numbered_section_titles_are_not_document_titles() {
    // novogenia/agb: "8. Datenschutz" is a clause, "9." its sibling.
    let html = format!(
        "<h2>AGB</h2><p>{VERTRAG}</p><p><b>7. Lieferung</b></p><p>{VERTRAG}</p>\
         <p><b>8. Datenschutz</b></p><p>{VERTRAG}</p><p><b>9. Schlussbestimmungen</b></p><p>{VERTRAG}</p>\
         <h2>Widerrufsbelehrung</h2><p>{VERTRAG}</p>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "AGB [7. Lieferung, 8. Datenschutz, 9. Schlussbestimmungen], Widerrufsbelehrung"
    );
}

#[test]
fn a_widerrufsbelehrung_holds_its_own_titles() {
    // diamondpainting/widerrufsrecht: every title is a bold line; one bold phrase inside a
    // sentence does not make the bold style body text.
    let html = format!(
        "<div><p>Stornierungen sind nur gültig, wenn das Formular ausgefüllt wurde.<br><br>\
         <strong>Widerrufsbelehrung</strong><br><br><strong>Widerrufsrecht</strong><br>{VERTRAG}</p>\
         <p>Sie müssen uns <strong>(Muster GmbH, E-Mail)</strong> mittels einer eindeutigen Erklärung informieren.</p>\
         <p><br><strong>Folgen des Widerrufs</strong><br><br>{VERTRAG}</p>\
         <p><br><strong>Ausschluss- bzw. Erlöschensgründe</strong><br><br>{VERTRAG}</p>\
         <p><strong>Muster-Widerrufsformular</strong><br>{VERTRAG}</p></div>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "<>, Widerrufsbelehrung [Widerrufsrecht, Folgen des Widerrufs, \
         Ausschluss- bzw. Erlöschensgründe], Muster-Widerrufsformular"
    );
}

#[test]
fn a_heading_tag_level_ignores_emphasis_inside_it() {
    // ROMEO, eharmony: an italic `h3` or an `h3` wrapped in `<strong>` is still an `h3`.
    let html = format!(
        "<h3>Contact</h3><p>{LOREM}</p><h3><em>App</em></h3><p>{LOREM}</p>\
         <h3><strong>Legal basis</strong></h3><p>{LOREM}</p><h3>Security</h3><p>{LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Contact, App, Legal basis, Security"
    );
}

#[test]
fn untagged_numbered_lines_under_numbered_heading_tags_are_clauses() {
    // happn: `h1` "3. …" with bold "3.1 …" paragraphs: the author's headings are the tags.
    let html = format!(
        "<h1>1. Definitions</h1><p>{LOREM}</p><h1>2. Information we collect</h1>\
         <p><strong>2.1 Data you share</strong></p><p>{LOREM}</p><p><strong>2.2 Data we collect</strong></p>\
         <p>{LOREM}</p><h1>3. Contact</h1><p>{LOREM}</p>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "1. Definitions, 2. Information we collect, 3. Contact"
    );
    assert_eq!(s[1].paragraphs.len(), 4);
}

#[test]
fn heading_tags_that_are_a_list_of_titles_are_not_sections() {
    // Coffee Meets Bagel: a contents list whose items are `h2`s.
    let html = format!(
        "<h2>Contents</h2><ol><li><h2>Who may use</h2></li><li><h2>License</h2></li><li><h2>Privacy</h2></li></ol>\
         <h2>1. Who may use</h2><p>{LOREM}</p><h2>2. License</h2><p>{LOREM}</p>"
    );
    let s = tree(&html, &[]);
    assert_eq!(outline(&s), "Contents, 1. Who may use, 2. License");
    assert_eq!(s[0].paragraphs, ["Who may use", "License", "Privacy"]);
}

#[test]
fn heps_c1_rejects_a_style_found_inside_upper_level_sections() {
    // Underlined notes inside each titled block: their front nodes (the divs) hold the
    // upper-level titles, so they are no heading level (HEPS C1).
    let html = format!(
        "<div><p style=\"font-size: 20px\">Alpha</p><p><u>Note one</u></p><p>{LOREM}</p></div>\
         <div><p style=\"font-size: 20px\">Beta</p><p><u>Note two</u></p><p>{LOREM}</p></div>"
    );
    assert_eq!(outline(&tree(&html, &[])), "Alpha, Beta");
}

#[test]
fn a_page_title_on_the_level_of_the_documents_holds_them() {
    // diamondpainting/widerrufsrecht: the article opens with its bold title.
    let html = format!(
        "<div><p><strong>Widerrufsrecht für Verbraucher</strong><br>{VERTRAG}</p>\
         <p><strong>Widerrufsbelehrung</strong><br><br><strong>Widerrufsrecht</strong><br>{VERTRAG}</p>\
         <p><br><strong>Folgen des Widerrufs</strong><br><br>{VERTRAG}</p>\
         <p><strong>Muster-Widerrufsformular</strong><br>{VERTRAG}</p></div>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Widerrufsrecht für Verbraucher [Widerrufsbelehrung [Widerrufsrecht, \
         Folgen des Widerrufs], Muster-Widerrufsformular]"
    );
}

/// The clause with `address` and its text, from a page through the whole analysis.
fn clause_text(html: &str, address: &[&str]) -> Option<String> {
    let a = analyze(html, &AnalysisOptions::default()).expect("an analysable page");
    let (section, clause) = Section::find_clause(&a.sections, address)?;
    Some(clause.text(section))
}

#[test]
fn german_clause_addresses_section_absatz_and_letter() {
    let html = format!(
        "<html><body><nav>Start Shop Kontakt</nav><div class=\"agb\"><h1>Allgemeine \
         Geschäftsbedingungen</h1><h2>§ 1 Geltungsbereich</h2><p>{VERTRAG}</p>\
         <h2>§ 2 Vertragsschluss</h2><p>(1) {VERTRAG}</p><p>(2) {VERTRAG}</p>\
         <h2>§ 3 Zahlung</h2><p>(1) Es gelten die folgenden Zahlungsarten.</p>\
         <p>(2) Die Zahlung erfolgt nach Wahl des Kunden:</p><p>a) per Vorkasse;</p>\
         <p>b) per PayPal;</p><p>c) auf Rechnung.</p><p>Wir behalten uns vor, einzelne \
         Zahlungsarten auszuschließen.</p><p>(3) {VERTRAG}</p></div><footer>Impressum</footer>\
         </body></html>"
    );
    assert_eq!(
        clause_text(&html, &["§ 3", "(2)", "a)"]).as_deref(),
        Some("a) per Vorkasse;")
    );
    // The Absatz spans its letters and the sentence after them, not (3).
    let absatz = clause_text(&html, &["§ 3", "(2)"]).unwrap();
    assert!(absatz.starts_with("(2) Die Zahlung") && absatz.contains("c) auf Rechnung."));
    assert!(
        absatz.ends_with("auszuschließen.") && !absatz.contains("(3)"),
        "{absatz}"
    );
    assert!(clause_text(&html, &["§ 2", "(2)"]).is_some());
    assert!(clause_text(&html, &["§ 2", "(3)"]).is_none());
    // `paragraphs` are as before: every block, the numbered ones included.
    let a = analyze(&html, &AnalysisOptions::default()).unwrap();
    let (section, _) = Section::find_clause(&a.sections, &["§ 3", "(1)"]).unwrap();
    assert_eq!(section.paragraphs.len(), 7);
    assert_eq!(section.clauses.len(), 3);
}

#[test]
fn decimal_clauses_under_numbered_sections() {
    // The commonest German AGB numbering: "1. Geltungsbereich" with "1.1", "1.2" under it.
    let html = "<html><body><main><h1>AGB</h1><h2>1. Geltungsbereich</h2><p>1.1 Diese AGB \
        gelten für alle Verträge, die ein Kunde mit dem Verkäufer über den Online-Shop \
        abschließt.</p><p>1.2 Verbraucher ist jede natürliche Person, die ein Rechtsgeschäft \
        überwiegend zu privaten Zwecken abschließt.</p><h2>2. Vertragsschluss</h2><p>2.1 Die \
        Produktbeschreibungen im Online-Shop stellen keine verbindlichen Angebote dar.</p><p>2.2 \
        Der Kunde gibt durch Klicken des Bestellbuttons ein verbindliches Angebot ab.</p>\
        </main></body></html>";
    assert_eq!(
        clause_text(html, &["2.", "2.2"]).as_deref(),
        Some("2.2 Der Kunde gibt durch Klicken des Bestellbuttons ein verbindliches Angebot ab.")
    );
    assert!(clause_text(html, &["1.", "1.2"]).is_some());
    assert!(clause_text(html, &["1.", "1.3"]).is_none());
}

#[test]
fn english_clause_addresses_with_roman_items() {
    let body = "You may use the service only as permitted by these terms and by law.";
    let html = format!(
        "<html><body><header>Home Pricing Blog</header><main><h1>Terms of Service</h1>\
         <h2>3. Accounts</h2><p>{body}</p><h2>4. Use of the Service</h2><p>(a) {body}</p>\
         <p>(b) You must not, and must not allow anyone else to:</p><p>(i) copy, modify or \
         distribute any part of the service;</p><p>(ii) reverse engineer the service;</p>\
         <p>(iii) send unsolicited messages.</p><p>(c) We may suspend your access if you breach \
         this section.</p><h2>5. Termination</h2><p>{body}</p></main><footer>Contact</footer>\
         </body></html>"
    );
    assert_eq!(
        clause_text(&html, &["4.", "(b)", "(ii)"]).as_deref(),
        Some("(ii) reverse engineer the service;")
    );
    assert!(clause_text(&html, &["4.", "(c)"]).is_some());
    // The JSON carries the address as data.
    let a = analyze(&html, &AnalysisOptions::default()).unwrap();
    let json = serde_json::to_value(&a.sections).unwrap();
    let text = json.to_string();
    assert!(text.contains(r#""address":["4.","(b)","(ii)"]"#), "{text}");
}

#[test]
fn numbers_set_in_elements_of_their_own_are_numbers() {
    // Tailwind templates set the number in a span with a margin, no space after it: the
    // number still numbers the title and the clauses ("2.1Usage Restrictions" was one word).
    let html = "<html><body><main><article><h1>Terms of Service</h1><h2><span class=mr-3>1.\
        </span>Definitions</h2><p>\"Services\" means the Stackpilot hosted platform, its APIs \
        and related services.</p><h2><span class=mr-3>2.</span>Accounts</h2><h3><span \
        class=mr-2>2.1</span>Usage Restrictions</h3><p>Customer shall not, and shall not permit \
        any third party to:</p><p><span class=mr-2>(a)</span>sell or sublicense the Services to \
        any third party;</p><p><span class=mr-2>(b)</span>use the Services to host malware.</p>\
        </article></main></body></html>";
    assert_eq!(
        outline(&tree(html, &[])),
        "Terms of Service [1. Definitions, 2. Accounts [2.1 Usage Restrictions]]"
    );
    assert_eq!(
        clause_text(html, &["2.", "2.1", "(b)"]).as_deref(),
        Some("(b) use the Services to host malware.")
    );
}

#[test]
fn a_short_clause_among_long_ones_is_no_title() {
    // Händlerbund's AGB: "2.1 … Sprache(n): Deutsch" has no full stop, but 2.2 after it is a
    // sentence: the numbers are clauses throughout, not titles with text under them.
    let html = "<html><body><main><h1>Allgemeine Geschäftsbedingungen</h1><p><strong>1. \
        Geltungsbereich</strong></p><p>1.1 Für alle Bestellungen über unseren Online-Shop \
        gelten die nachfolgenden AGB.</p><p><strong>2. Vertragssprache, \
        Vertragstextspeicherung</strong></p><p>2.1 Die für den Vertragsschluss zur Verfügung \
        stehende(n) Sprache(n): Deutsch</p><p>2.2 Wir speichern den Vertragstext und senden \
        Ihnen die Bestelldaten und unsere AGB in Textform zu.</p></main></body></html>";
    assert_eq!(
        outline(&tree(html, &[])),
        "Allgemeine Geschäftsbedingungen [1. Geltungsbereich, 2. Vertragssprache, \
         Vertragstextspeicherung]"
    );
    assert!(clause_text(html, &["2.", "2.2"]).is_some());
    // A lead-in sentence ending in a colon, then its letters and the next clause.
    let html = "<html><body><main><h1>AGB</h1><h2>1. Allgemeines</h2><p>1.1 Für Unternehmer \
        gilt zusätzlich Folgendes:</p><p>a) Abweichende Geschäftsbedingungen des Unternehmers \
        finden keine Anwendung.</p><p>b) Der Gerichtsstand ist Dresden.</p><p>1.2 Unsere \
        Angebote richten sich an Kunden mit Lieferadresse in Deutschland.</p></main></body>\
        </html>";
    assert_eq!(outline(&tree(html, &[])), "AGB [1. Allgemeines]");
    assert_eq!(
        clause_text(html, &["1.", "1.1", "b)"]).as_deref(),
        Some("b) Der Gerichtsstand ist Dresden.")
    );
}

#[test]
fn clauses_after_a_list_inside_a_clause_stay_addressable() {
    // IT-Recht Kanzlei's AGB: "(1) … indem wir" then a bullet list, then (2) and (3). The
    // list belongs to clause (1); the clauses after it continue the section's own sequence.
    let html = "<html><body><main><h1>AGB</h1><h2>§ 2 Vertragsschluss</h2><p>(1) Wir können \
        das Angebot des Kunden innerhalb von fünf Tagen annehmen, indem wir</p><ul><li>eine \
        Auftragsbestätigung in Textform übermitteln, oder</li><li>die bestellte Ware \
        liefern.</li></ul><p>(2) Die Vertragssprache ist Deutsch.</p><p>(3) Der Vertragstext \
        wird von uns gespeichert.</p><h2>§ 3 Preise</h2><p>(1) Alle Preise sind \
        Endpreise.</p></main></body></html>";
    assert_eq!(
        clause_text(html, &["§ 2", "(3)"]).as_deref(),
        Some("(3) Der Vertragstext wird von uns gespeichert.")
    );
    let first = clause_text(html, &["§ 2", "(1)"]).unwrap();
    assert!(first.ends_with("die bestellte Ware liefern."), "{first}");
    // A list in a section without clauses keeps its item sections.
    let plain = "<html><body><main><h1>Datenschutz</h1><h2>Ihre Rechte</h2><p>Sie haben das \
        Recht auf</p><ul><li>Auskunft,</li><li>Löschung.</li></ul><p>Zuständig ist das \
        Landesamt für Datenschutzaufsicht.</p></main></body></html>";
    let a = analyze(plain, &AnalysisOptions::default()).unwrap();
    assert_eq!(a.sections[0].subsections[0].subsections.len(), 3);
}

#[test]
fn doubled_letters_are_clauses_under_letters() {
    // German drafting: "aa)", "bb)" under "b)", then "c)" goes on with the letters.
    let html = "<html><body><main><h1>AGB</h1><h2>1. Allgemeines</h2><p>1.1 Diese AGB gelten \
        für alle Bestellungen.</p><p>1.2 Für Unternehmer gilt zusätzlich Folgendes:</p><p>a) \
        Abweichende Bedingungen finden keine Anwendung.</p><p>b) Für Sammelbestellungen von \
        Schulen gilt:</p><p>aa) Die Lieferung erfolgt auf Rechnung.</p><p>bb) Rücksendungen \
        sind nur nach Absprache möglich.</p><p>c) Der Gerichtsstand ist Dresden.</p><p>1.3 \
        Unsere Angebote richten sich an Kunden in Deutschland.</p></main></body></html>";
    assert_eq!(
        clause_text(html, &["1.", "1.2", "b)", "bb)"]).as_deref(),
        Some("bb) Rücksendungen sind nur nach Absprache möglich.")
    );
    assert_eq!(
        clause_text(html, &["1.", "1.2", "c)"]).as_deref(),
        Some("c) Der Gerichtsstand ist Dresden.")
    );
    // "ii)" stays a Roman numeral.
    let roman = enumeration::detect("ii) second").unwrap();
    assert_eq!(roman.kind, NumberKind::RomanLower);
}

#[test]
fn french_items_numbered_with_the_degree_sign_are_clauses() {
    // French (and Italian, Spanish) articles number their items "1°", "2°" (or "2º").
    let body = "Le client passe commande sur le site selon les étapes décrites ci-dessous.";
    let html = format!(
        "<html lang=\"fr\"><body><nav>Accueil Femme Homme</nav><main><h1>Conditions \
         générales de vente</h1><h2>Article 1 - Objet</h2><p>{body}</p><h2>Article 2 - \
         Commande</h2><p>{body}</p><p>1° Sélection des produits et ajout au panier&nbsp;;</p>\
         <p>2° Identification ou création d'un compte client&nbsp;;</p><p>3° Validation de la \
         commande.</p><h2>Article 3 - Prix</h2><p>{body}</p></main><footer>Contact</footer>\
         </body></html>"
    );
    assert_eq!(
        clause_text(&html, &["Article 2", "2°"]).as_deref(),
        Some("2° Identification ou création d'un compte client ;")
    );
    assert!(clause_text(&html, &["Article 2", "3°"]).is_some());
    // A temperature is no item number.
    let warm = html.replace("1° Sélection", "30°C au maximum, sélection");
    assert!(clause_text(&warm, &["Article 2", "30°"]).is_none());
}

#[test]
fn bold_sections_under_tagged_document_titles_are_titles() {
    // One page, three documents under one `h2` each, their sections in bold: the tags mark
    // the documents, so the bold lines still head the sections.
    let part = |title: &str| format!("<p><strong>{title}</strong></p><p>{VERTRAG}</p>");
    let html = format!(
        "<html><body><nav>Start Shop Kontakt</nav><main><h2>Allgemeine \
         Geschäftsbedingungen</h2>{}{}<h2>Widerrufsbelehrung</h2>{}{}<h2>Datenschutzerklärung\
         </h2>{}{}</main><footer>Impressum</footer></body></html>",
        part("Geltungsbereich"),
        part("Vertragsschluss"),
        part("Widerrufsrecht"),
        part("Folgen des Widerrufs"),
        part("Verantwortlicher"),
        part("Ihre Rechte"),
    );
    let a = analyze(&html, &AnalysisOptions::default()).unwrap();
    let titles = |s: &Section| -> Vec<String> {
        s.subsections
            .iter()
            .filter_map(|c| c.title.clone())
            .collect()
    };
    assert_eq!(a.sections.len(), 3, "{:#?}", a.sections);
    assert_eq!(
        titles(&a.sections[1]),
        ["Widerrufsrecht", "Folgen des Widerrufs"]
    );
    assert_eq!(titles(&a.sections[2]), ["Verantwortlicher", "Ihre Rechte"]);
    // A tag heading that names no document keeps bold as emphasis.
    let tagged = html.replace("<h2>Widerrufsbelehrung</h2>", "<h2>Ihr gutes Recht</h2>");
    let a = analyze(&tagged, &AnalysisOptions::default()).unwrap();
    assert!(
        a.sections.iter().all(|s| titles(s).is_empty()),
        "{:#?}",
        a.sections
    );
}

#[test]
fn an_h1_at_body_level_before_numbered_paragraphs_is_the_title() {
    // Issue 12, first reproduction: without a wrapping element the `h1` was dropped.
    let clause = "Diese Bedingungen gelten für alle Bestellungen in unserem Online-Shop.";
    let bare = format!(
        "<html><body><h1>AGB</h1><p>1. Geltungsbereich: {clause}</p><p>2. Vertragsschluss: \
         {clause}</p><p>3. Preise: {clause}</p></body></html>"
    );
    let wrapped = bare
        .replace("<body>", "<body><div>")
        .replace("</body>", "</div></body>");
    for html in [&bare, &wrapped] {
        let a = analyze(html, &AnalysisOptions::default()).unwrap();
        assert_eq!(a.sections[0].title.as_deref(), Some("AGB"), "{html}");
        assert!(a.text.starts_with("AGB\n1. Geltungsbereich"), "{}", a.text);
    }
    // A body-level h2 that names no document is not taken as the title.
    let welcome = bare.replace("<h1>AGB</h1>", "<h2>Willkommen im Shop</h2>");
    let a = analyze(&welcome, &AnalysisOptions::default()).unwrap();
    assert!(!a.text.contains("Willkommen"), "{}", a.text);
}

#[test]
fn a_form_in_the_style_of_the_documents_sections_is_a_section() {
    // Issue 12, third reproduction: "Muster-Widerrufsformular" is in the vocabulary of
    // document titles, but it looks like the Widerrufsbelehrung's own sections.
    let css = [".doc{font-size:28px;font-weight:bold} .sec{font-size:18px;font-weight:bold}"];
    let html = format!(
        "<div><p class=\"doc\">Widerrufsbelehrung</p><p class=\"sec\">Widerrufsrecht</p>\
         <p>{VERTRAG}</p><p>{VERTRAG}</p><p class=\"sec\">Folgen des Widerrufs</p><p>{VERTRAG}</p>\
         <p>{VERTRAG}</p><p class=\"sec\">Muster-Widerrufsformular</p><p>{VERTRAG}</p></div>"
    );
    assert_eq!(
        outline(&tree(&html, &css)),
        "Widerrufsbelehrung [Widerrufsrecht, Folgen des Widerrufs, Muster-Widerrufsformular]"
    );
    // In the style of the document title itself it is a document of its own.
    let same = html.replace(
        "class=\"sec\">Muster-Widerrufsformular",
        "class=\"doc\">Muster-Widerrufsformular",
    );
    assert_eq!(
        outline(&tree(&same, &css)),
        "Widerrufsbelehrung [Widerrufsrecht, Folgen des Widerrufs], Muster-Widerrufsformular"
    );
}

/// The one `h1` that opens the content is the document's title even where its inline size
/// draws it smaller than the `h2` sections (the site's own style sheet, which is not loaded,
/// shrinks those): the sections are its children, not its siblings.
#[test]
fn a_single_leading_h1_holds_the_sections_drawn_larger() {
    let html = format!(
        "<h1 style=\"font-size:18px\">Privacy Policy</h1><p>{LOREM}</p>\
         <h2>Who may use the services</h2><p>{LOREM}</p><h2>What we collect</h2><p>{LOREM}</p>\
         <h2>How we use it</h2><p>{LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Privacy Policy [Who may use the services, What we collect, How we use it]"
    );
    // Two `h1`s: the sizes decide as before (the larger `h2`s are not nested under them).
    let two = format!("{html}<h1 style=\"font-size:18px\">Cookie Policy</h1><p>{LOREM}</p>");
    let out = outline(&tree(&two, &[]));
    assert!(out.starts_with("Privacy Policy, Who may use"), "{out}");
}

#[test]
fn lone_ordered_items_are_numbered_section_titles() {
    // A word processor's export: each section title is a list of its own, numbered by its
    // `start`; a browser shows "2. How do we use your data?" above the paragraph.
    let html = format!(
        "<h1>Privacy Policy</h1><p>{LOREM}</p>\
         <ol><li>What data do we collect?</li></ol><p>{LOREM}</p>\
         <ol start=\"2\"><li>How do we use the data you give us?</li></ol><p>{LOREM}</p>\
         <ol start=\"3\"><li>Who receives your data?</li></ol><p>{LOREM}</p>"
    );
    let sections = tree(&html, &[]);
    assert_eq!(
        outline(&sections),
        "Privacy Policy [What data do we collect?, How do we use the data you give us?, Who receives your data?]"
    );
    let numbers: Vec<_> = sections[0]
        .subsections
        .iter()
        .map(|s| s.number.clone())
        .collect();
    assert_eq!(
        numbers,
        [Some("1.".into()), Some("2.".into()), Some("3.".into())]
    );
    assert_eq!(sections[0].subsections[1].paragraphs, [LOREM]);
    // One lone item is a list like any other (an untitled item), and so are the items of a
    // longer list.
    let single = format!(
        "<h1>Terms</h1><p>{LOREM}</p><ol start=\"4\"><li>Short item</li></ol><p>{LOREM}</p>"
    );
    assert_eq!(outline(&tree(&single, &[])), "Terms [<>, <>]");
    let list = format!(
        "<h1>Terms</h1><p>{LOREM}</p><ol><li>First item</li><li>Second item</li></ol><p>{LOREM}</p>"
    );
    assert_eq!(outline(&tree(&list, &[])), "Terms [<>, <>, <>]");
}

#[test]
fn numbered_questions_are_section_titles() {
    // "5. What is our legal basis for using it?" is a title, though it ends like a sentence.
    let html = format!(
        "<h1>Privacy and Cookies Policy</h1>\
         <p>1. Who are we and how can you reach us?</p><p>1.1 {LOREM}</p>\
         <p>2. What is the point of this policy?</p><p>2.1 {LOREM}</p>\
         <p>3. What is our legal basis for using it?</p><p>3.1 {LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Privacy and Cookies Policy [1. Who are we and how can you reach us?, \
         2. What is the point of this policy?, 3. What is our legal basis for using it?]"
    );
    // Privacy policies ask their sections at length; a long numbered statement stays text.
    let long = format!(
        "<h1>Privacy Policy</h1><p>1. What Types of Information Do We and Our Service \
         Providers Collect From You?</p><p>{LOREM}</p><p>2. How Do We and Our Third Party \
         Service Providers Use the Information Collected From You?</p><p>{LOREM}</p>\
         <p>3. We and our third party service providers share the information collected \
         from you only as this policy says.</p><p>{LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&long, &[])),
        "Privacy Policy [1. What Types of Information Do We and Our Service Providers Collect \
         From You?, 2. How Do We and Our Third Party Service Providers Use the Information \
         Collected From You?]"
    );
}

#[test]
fn a_contents_heading_does_not_hold_the_numbered_titles_after_it() {
    // "Inhaltsverzeichnis" over a list of the titles, then the titles as lone ordered items:
    // the sections are the contents' siblings, not its children.
    let html = format!(
        "<h1>Datenschutzerklärung</h1><p>{VERTRAG}</p><h2>Inhaltsverzeichnis</h2>\
         <ol><li>Welche Daten erfassen wir</li><li>Wie nutzen wir sie</li><li>Wer erhält sie</li></ol>\
         <ol><li>WELCHE DATEN ERFASSEN WIR?</li></ol><p>{VERTRAG}</p>\
         <ol start=\"2\"><li>WIE NUTZEN WIR SIE?</li></ol><p>{VERTRAG}</p>\
         <ol start=\"3\"><li>WER ERHÄLT SIE?</li></ol><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Datenschutzerklärung [Inhaltsverzeichnis [<>, <>, <>], WELCHE DATEN ERFASSEN WIR?, \
         WIE NUTZEN WIR SIE?, WER ERHÄLT SIE?]"
    );
}

#[test]
fn plain_title_lines_head_sections_where_the_page_draws_no_headings() {
    // A withdrawal notice written as plain paragraphs: the short lines before the prose are
    // its titles; the line ending in a comma and the address are not.
    let html = "<p>Widerrufsrecht</p>\
         <p>Sie haben das Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen.</p>\
         <p>Um Ihr Widerrufsrecht auszuüben, müssen Sie uns</p><p>Muster GmbH</p>\
         <p>mittels einer eindeutigen Erklärung über Ihren Entschluss, diesen Vertrag zu widerrufen, informieren.</p>\
         <p>Folgen des Widerrufs</p>\
         <p>Wenn Sie diesen Vertrag widerrufen, haben wir Ihnen alle Zahlungen, die wir von Ihnen erhalten haben, unverzüglich zurückzuzahlen.</p>";
    assert_eq!(
        outline(&tree(html, &[])),
        "Widerrufsrecht, Folgen des Widerrufs"
    );
}

#[test]
fn plain_lines_stay_text_where_the_page_draws_headings() {
    // With `h2` sections, a short plain line is the author's text (a lead-in, a name).
    let html = format!(
        "<h1>Privacy Policy</h1><h2>What we collect</h2><p>Account data</p><p>{LOREM}</p>\
         <h2>Your rights</h2><p>Access and deletion</p><p>{LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Privacy Policy [What we collect, Your rights]"
    );
}

#[test]
fn a_lone_or_repeated_plain_line_is_no_title() {
    // One line alone gives no section structure; a line printed three times is furniture,
    // and interface labels name no section.
    let lone = format!("<p>{LOREM}</p><p>Staff Reports</p><p>{LOREM}</p>");
    assert_eq!(outline(&tree(&lone, &[])), "<>");
    let furniture = format!(
        "<p>{LOREM}</p><p>Advertisement</p><p>{LOREM}</p><p>Advertisement</p><p>{LOREM}</p>\
         <p>Read more</p><p>{LOREM}</p><p>Subscribe</p><p>{LOREM}</p>"
    );
    assert_eq!(outline(&tree(&furniture, &[])), "<>");
}

#[test]
fn a_title_printed_twice_in_a_row_is_one_title() {
    // A theme's entry title over the generator's own title: one root holds the sections.
    let html = format!(
        "<header><h1 class=entry-title>Datenschutzerklärung</h1></header>\
         <div class=entry-content><h1>Datenschutzerklärung</h1><h2>Einleitung</h2><p>{VERTRAG}</p>\
         <h2>Verantwortlicher</h2><p>{VERTRAG}</p></div>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Datenschutzerklärung [Einleitung, Verantwortlicher]"
    );
}

#[test]
fn a_bold_line_opening_a_list_item_titles_the_item() {
    // Sections written as list items, each a bold title line and its prose.
    let item = |title: &str| format!("<li><strong>{title}</strong><p>{LOREM}</p></li>");
    let html = format!(
        "<h1>Privacy Policy</h1><p>{LOREM}</p><ol>{}{}</ol>",
        item("Health Data"),
        item("Information Security")
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "Privacy Policy [Health Data, Information Security]"
    );
    // A bold line that is the whole item (a list of names) titles nothing.
    let names = "<h1>Imprint</h1><ul><li><strong>Max Mustermann</strong></li><li><strong>Erika Musterfrau</strong></li></ul>";
    assert_eq!(outline(&tree(names, &[])), "Imprint [<>, <>]");
}

#[test]
fn bold_item_lines_are_emphasis_where_the_sections_are_tagged() {
    let item = |title: &str| format!("<li><strong>{title}</strong><p>{LOREM}</p></li>");
    let html = format!(
        "<h1>Terms</h1><h2>Accounts</h2><ul>{}{}</ul><h2>Payment</h2><p>{LOREM}</p>",
        item("Registration"),
        item("Security")
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Terms [Accounts [<>, <>], Payment]"
    );
}

#[test]
fn a_title_printed_three_times_is_one_title() {
    let html = format!(
        "<h1>AGB</h1><h1>AGB</h1><h1>AGB</h1><h2>§ 1 Geltungsbereich</h2><p>{VERTRAG}</p>\
         <h2>§ 2 Preise</h2><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "AGB [§ 1 Geltungsbereich, § 2 Preise]"
    );
}

#[test]
fn a_line_broken_inside_a_sentence_is_no_title() {
    // `<br>` ends a block, but the sentence goes on in lower case after it.
    let html = "<p>Wir verwenden Cookies<br>um die Nutzung unserer Website zu analysieren und unser Angebot laufend zu verbessern.</p>\
         <p>Wir speichern Daten<br>nur so lange, wie es für die genannten Zwecke erforderlich ist und das Gesetz es verlangt.</p>";
    assert_eq!(outline(&tree(html, &[])), "<>");
}

#[test]
fn a_number_on_its_own_line_numbers_the_title_after_it() {
    // German shop layout: the section sign on one bold line, the title on the next.
    let para = |n: &str, t: &str| {
        format!("<p><strong>§ {n}</strong></p><p><strong>{t}</strong></p><p>{VERTRAG}</p>")
    };
    let html = format!(
        "<h1>AGB</h1>{}{}{}",
        para("1", "Geltungsbereich"),
        para("2", "Vertragsschluss"),
        para("3", "Preise")
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "AGB [§ 1 Geltungsbereich, § 2 Vertragsschluss, § 3 Preise]"
    );
    assert_eq!(s[0].subsections[1].number.as_deref(), Some("§ 2"));
    // The same with heading tags: `h2` "§ 1" over `h3` "Geltungsbereich".
    let tagged = format!(
        "<h1>AGB</h1><h2>§ 1</h2><h3>Geltungsbereich</h3><p>{VERTRAG}</p><h2>§ 2</h2><h3>Preise</h3><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&tagged, &[])),
        "AGB [§ 1 Geltungsbereich, § 2 Preise]"
    );
    // English "eyebrow" numbers above the heading tags nest by their numbers.
    let eyebrow = format!(
        "<h1>Privacy Policy</h1><p>1</p><h2>Information We Collect</h2><p>{LOREM}</p>\
         <p>1.1</p><h3>Account data</h3><p>{LOREM}</p><p>1.2</p><h3>Usage data</h3><p>{LOREM}</p>\
         <p>2</p><h2>Contact</h2><p>{LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&eyebrow, &[])),
        "Privacy Policy [1 Information We Collect [1.1 Account data, 1.2 Usage data], 2 Contact]"
    );
    // Pagination links stay apart from the text after them.
    let pages = format!("<h1>News</h1><p>{LOREM}</p><p><a href=/p/2>2</a></p><p>{LOREM}</p>");
    let a = analyze(
        &format!("<html><body><main>{pages}</main></body></html>"),
        &AnalysisOptions::default(),
    )
    .unwrap();
    assert!(!a.text.contains("2 Lorem"), "{}", a.text);
}

#[test]
fn numbered_pieces_of_a_sentence_are_no_titles() {
    // Untagged numbered titles head sections; numbered lines that start in lower case or end
    // with the conjunction of a list run are pieces of the sentence before them.
    let html = format!(
        "<p>1. Scope</p><p>{LOREM}</p><p>2. Our promises</p><p>We do not promise:</p>\
         <p>a) that the service is free of errors; or</p><p>b) that it is always available.</p>\
         <p>3. Purposes</p><p>We use your data for these purposes:</p>\
         <p>4. To provide the service; and</p><p>5. To comply with the law.</p><p>{LOREM}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "1. Scope, 2. Our promises, 3. Purposes"
    );
}

#[test]
fn a_document_name_over_section_signs_of_its_tag_is_their_title() {
    let html = format!(
        "<h2>AGB &amp; Widerrufsrecht</h2><h2>§ 1 Geltungsbereich</h2><p>{VERTRAG}</p>\
         <h2>§ 2 Vertragsschluss</h2><p>{VERTRAG}</p><h2>§ 3 Preise</h2><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "AGB & Widerrufsrecht [§ 1 Geltungsbereich, § 2 Vertragsschluss, § 3 Preise]"
    );
    // Roman parts open the structure the same way, whatever numbers their sections carry.
    let parts = format!(
        "<h2>AGB und Kundeninformationen</h2><h2>I. Allgemeine Geschäftsbedingungen</h2>\
         <h2>§ 1 Geltungsbereich</h2><p>{VERTRAG}</p><h2>II. Kundeninformationen</h2>\
         <h2>1. Identität des Verkäufers</h2><p>{VERTRAG}</p>"
    );
    assert!(
        outline(&tree(&parts, &[])).starts_with("AGB und Kundeninformationen ["),
        "{}",
        outline(&tree(&parts, &[]))
    );
    // An unnumbered first section that names no document stays their sibling.
    let intro = html.replace("AGB &amp; Widerrufsrecht", "Einleitung");
    assert_eq!(
        outline(&tree(&intro, &[])),
        "Einleitung, § 1 Geltungsbereich, § 2 Vertragsschluss, § 3 Preise"
    );
}

#[test]
fn an_empty_heading_over_the_documents_title_is_text() {
    // The help centre's heading opens the content and heads nothing: the policy's own title
    // is the root of the tree.
    let html = format!(
        "<h1>Help Centre</h1><h1>Privacy Policy</h1><p>{LOREM}</p><h2>Data we collect</h2><p>{LOREM}</p>\
         <h2>Your rights</h2><p>{LOREM}</p>"
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "<>, Privacy Policy [Data we collect, Your rights]"
    );
    assert_eq!(s[0].paragraphs, ["Help Centre"]);
    // A heading that names a document stays a heading.
    let named = html.replace("Help Centre", "Datenschutz");
    assert!(outline(&tree(&named, &[])).starts_with("Datenschutz"));
}

#[test]
fn a_section_named_like_a_document_in_the_look_of_the_sections_stays_a_section() {
    // "Datenschutz" is an `h3` like the contract's other sections, under the terms' `h1` and
    // the contract's `h2`: the look outweighs the name.
    let html = format!(
        "<h1>Allgemeine Geschäftsbedingungen</h1><h2>Lifestyle-Analysen</h2><h3>Allgemeines</h3><p>{VERTRAG}</p>\
         <h3>Haftung</h3><p>{VERTRAG}</p><h3>Datenschutz</h3><p>{VERTRAG}</p><h3>Sonstiges</h3><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Allgemeine Geschäftsbedingungen [Lifestyle-Analysen [Allgemeines, Haftung, Datenschutz, Sonstiges]]"
    );
    // Compared with the document title just before it: a small page title above
    // "Terms of Use" does not make "Privacy Policy", an `h2` like the terms' sections, a
    // document.
    let terms = format!(
        "<p class=page-title>Terms and Conditions of Use</p><h1>Terms of Use</h1><h2>Agreement</h2><p>{LOREM}</p>\
         <h2>Payments</h2><p>{LOREM}</p><h2>Privacy Policy</h2><p>{LOREM}</p><h2>Governing Law</h2><p>{LOREM}</p>"
    );
    let css = [".page-title { font-size: 12px; text-transform: uppercase }"];
    let outline = outline(&tree(&terms, &css));
    assert!(
        outline.ends_with("Terms of Use [Agreement, Payments, Privacy Policy, Governing Law]"),
        "{outline}"
    );
}

#[test]
fn a_title_naming_two_documents_holds_them() {
    let html = format!(
        "<h1>Widerrufsbelehrung &amp; Widerrufsformular</h1><h2>Widerrufsbelehrung</h2><p>{VERTRAG}</p>\
         <h2>Muster-Widerrufsformular</h2><p>{VERTRAG}</p>"
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Widerrufsbelehrung & Widerrufsformular [Widerrufsbelehrung, Muster-Widerrufsformular]"
    );
}

#[test]
fn bold_titles_in_jump_targets_are_titles_not_links() {
    // A table of contents links to `<a name>` / `<a id>` targets wrapping the bold titles: an
    // `<a>` without `href` is rendered as plain text, so the titles are no link text.
    let section = |id: &str, title: &str| {
        format!(
            "<p><a name=\"{id}\" id=\"{id}\"><strong>{title}</strong></a></p><p>{LOREM}</p><p>{LOREM}</p>"
        )
    };
    let html = format!(
        "<h1>Terms of Use</h1><p><a href=\"#acc\">Accounts</a></p><p><a href=\"#fees\">Fees</a></p>\
         <p><a href=\"#law\">Governing Law</a></p>{}{}{}",
        section("acc", "Accounts"),
        section("fees", "Fees"),
        section("law", "Governing Law")
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Terms of Use [Accounts, Fees, Governing Law]"
    );
    // A script-driven `<a>` (neither `href` nor a name) stays link text: a menu, no titles.
    let menu = html
        .replace("<a name=", "<a class=")
        .replace(" id=\"", " data-x=\"");
    assert!(
        !outline(&tree(&menu, &[])).contains("Fees"),
        "{}",
        outline(&tree(&menu, &[]))
    );
}

#[test]
fn every_clause_set_in_a_numbered_heading_tag_is_a_heading() {
    // Clauses set in heading tags, long and short: a long one in a numbered sequence is a
    // heading like its short siblings (the tree never nests 6.3 under 6.2). Long text in a
    // heading tag without a sequence stays a paragraph.
    let long = "you may not copy, modify, distribute, sell or lease any part of the service or the software it runs on, nor may you reverse engineer it, unless the law allows it";
    let html = format!(
        "<h2>6. Use of the Service</h2><h3>6.1 You must follow these terms.</h3><p>{LOREM}</p>\
         <h3>6.2 You must keep your password safe.</h3><p>{LOREM}</p>\
         <h3>6.3 Unless you have our written permission, {long}.</h3><p>{LOREM}</p>\
         <h3>6.4 You must not use the service to send spam.</h3><p>{LOREM}</p>\
         <h2>7. Ending the Contract</h2><p>{LOREM}</p>\
         <h3>Where we say that {long}, this applies to every version of it as well as to all updates.</h3><p>{LOREM}</p>"
    );
    let s = tree(&html, &[]);
    let titles: Vec<String> = s[0]
        .subsections
        .iter()
        .map(|c| c.number.clone().unwrap_or_default())
        .collect();
    assert_eq!(titles, ["6.1", "6.2", "6.3", "6.4"], "{}", outline(&s));
    assert!(s[1].subsections.is_empty(), "{}", outline(&s));
    assert!(
        s[1].paragraphs
            .iter()
            .any(|p| p.starts_with("Where we say"))
    );
}

#[test]
fn french_articles_numbered_from_premier_are_one_sequence() {
    // French terms number the first article "1er" or "premier"; with bold titles the
    // articles are sections and "3.1." clauses stay in theirs.
    let p =
        "Les présentes conditions régissent les ventes conclues entre la société et ses clients.";
    let html = format!(
        "<h1>Conditions générales de vente</h1>\
         <p><strong>Article 1er – Objet</strong></p><p>{p}</p>\
         <p><strong>Article 2 – Prix</strong></p><p>{p}</p>\
         <p><strong>Article 3 – Commande</strong></p><p>{p}</p><p>3.1. {p}</p><p>3.2. {p}</p>"
    );
    let s = tree(&html, &[]);
    let numbers: Vec<Option<String>> = s[0].subsections.iter().map(|c| c.number.clone()).collect();
    assert_eq!(
        numbers,
        [
            Some("Article 1er".to_owned()),
            Some("Article 2".to_owned()),
            Some("Article 3".to_owned())
        ],
        "{}",
        outline(&s)
    );
    assert_eq!(s[0].subsections[2].paragraphs.len(), 3, "{}", outline(&s));
}

#[test]
fn a_withdrawal_notice_inside_a_numbered_section_holds_its_parts() {
    // AGB whose section 6 holds the whole Widerrufsbelehrung, every title a bold line: the
    // document's name heads its parts; other unnumbered titles stay under the number.
    let sec = |t: &str| format!("<p><strong>{t}</strong></p><p>{VERTRAG}</p>");
    let part = |t: &str| format!("<p><strong>{t}</strong><br>{VERTRAG}</p>");
    let html = format!(
        "<h1>Allgemeine Geschäftsbedingungen</h1>{}{}{}{}{}{}{}{}{}{}{}{}",
        sec("5. Lieferung"),
        sec("6. Widerrufsrecht"),
        part("Widerrufsbelehrung"),
        part("Widerrufsrecht"),
        part("Folgen des Widerrufs"),
        part("Muster-Widerrufsformular"),
        sec("7. Gewährleistung"),
        part("Mängelhaftung"),
        part("Garantien"),
        part("Verjährung"),
        sec("8. Schlussbestimmungen"),
        sec("9. Streitbeilegung"),
    );
    let s = tree(&html, &[]);
    assert_eq!(
        outline(&s),
        "Allgemeine Geschäftsbedingungen [5. Lieferung, 6. Widerrufsrecht [Widerrufsbelehrung \
         [Widerrufsrecht, Folgen des Widerrufs, Muster-Widerrufsformular]], 7. Gewährleistung \
         [Mängelhaftung, Garantien, Verjährung], 8. Schlussbestimmungen, 9. Streitbeilegung]"
    );
    // A run of document names only is a list of documents, not one holding the others.
    let html = format!(
        "<h1>Rechtliches</h1>{}{}{}{}{}{}",
        sec("1. Allgemeines"),
        sec("2. Rechtstexte"),
        part("AGB"),
        part("Datenschutzerklärung"),
        part("Impressum"),
        sec("3. Kontakt"),
    );
    assert_eq!(
        outline(&tree(&html, &[])),
        "Rechtliches [1. Allgemeines, 2. Rechtstexte [AGB, Datenschutzerklärung, Impressum], \
         3. Kontakt]"
    );
}

//! The content step on the LCA's known failure modes (split content, titles outside the
//! container, boilerplate, hidden and script-rendered content).

use tcx::{AnalysisOptions, AnalyzeError, analyze};
use tcx_core::ContentMethod;

fn opts() -> AnalysisOptions {
    AnalysisOptions::default()
}

/// `n` German clauses as `<p>` elements (each about 110 characters).
fn clauses(prefix: &str, n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!("<p>({i}) {prefix} Der Kunde erhält die Ware innerhalb von fünf Werktagen nach Eingang der vollständigen Zahlung.</p>\n")
        })
        .collect()
}

const FRAME_TOP: &str = "<html><head><title>AGB</title></head><body>\n<header><a href=/>Logo</a><nav><a href=/a>Shop</a> <a href=/b>Über uns</a> <a href=/c>Kontakt</a></nav></header>\n";
/// One sentence of a privacy policy, repeated to make a page's text.
const POLICY_SENTENCE: &str = "We collect the data you give us when you register and use it only to run the service and to answer your questions.";
const FRAME_BOTTOM: &str =
    "<footer><p><a href=/i>Impressum</a> | <a href=/d>Datenschutz</a></p></footer>\n</body></html>";

#[test]
fn second_document_in_its_own_box_is_kept() {
    let html = format!(
        "{FRAME_TOP}<main><div class=box><h2>Allgemeine Geschäftsbedingungen</h2>{}</div>\n<div class=box><h2>Widerrufsbelehrung</h2>{}</div></main>\n{FRAME_BOTTOM}",
        clauses("AGB", 9),
        clauses("Widerruf", 1)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.method, ContentMethod::Lca);
    assert!(
        a.text.contains("Widerrufsbelehrung") && a.text.contains("(1) Widerruf"),
        "{}",
        a.content.path
    );
    assert!(a.text.starts_with("Allgemeine Geschäftsbedingungen"));
    assert!(!a.text.contains("Impressum") && !a.text.contains("Kontakt"));
    assert_eq!(a.content.coverage, 1.0);
}

#[test]
fn clauses_continued_in_a_list_are_kept() {
    let list: String = (1..=4)
        .map(|i| format!("<li>Ziffer {i}: Die Gewährleistung richtet sich nach den gesetzlichen Vorschriften des BGB in der jeweils gültigen Fassung.</li>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<section><div class=text>{}</div><ul class=more>{list}</ul></section>{FRAME_BOTTOM}",
        clauses("AGB", 8)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.content.extended_siblings >= 1, "{:?}", a.content);
    assert!(a.text.contains("Ziffer 4: Die Gewährleistung"));
    assert!(!a.text.contains("Impressum"));
}

#[test]
fn accordion_with_the_withdrawal_notice_is_kept() {
    let html = format!(
        "{FRAME_TOP}<div id=wrap><div class=agb>{}</div>\n<h3>Widerrufsbelehrung</h3>\n<details><summary>Widerrufsbelehrung anzeigen</summary>{}</details></div>\n<div class=sidebar><p>Newsletter: Jetzt anmelden und sparen!</p></div>{FRAME_BOTTOM}",
        clauses("AGB", 8),
        clauses("Widerruf", 2)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("Widerrufsbelehrung anzeigen"));
    assert!(a.text.contains("(2) Widerruf"));
    assert!(!a.text.contains("Newsletter"));
}

#[test]
fn title_outside_the_container_is_included() {
    let html = format!(
        "{FRAME_TOP}<main><div class=page><div class=head><h1>Allgemeine Geschäftsbedingungen</h1><p>Stand: 1. Januar 2025</p></div><div class=body>{}</div></div></main>{FRAME_BOTTOM}",
        clauses("AGB", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .starts_with("Allgemeine Geschäftsbedingungen\nStand: 1. Januar 2025\n(1)"),
        "{}",
        a.text
    );
    assert_eq!(a.content.lead_in_elements, 1);
    assert!(!a.text.contains("Kontakt"));
}

#[test]
fn site_title_at_body_level_is_not_a_lead_in() {
    let html = format!(
        "<html><body><div class=top><h1>Willkommen im Shop</h1></div><div class=content>{}</div></body></html>",
        clauses("AGB", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(!a.text.contains("Willkommen"));
    assert_eq!(a.content.lead_in_elements, 0);
}

#[test]
fn clauses_as_list_items_after_an_introduction() {
    // The paper's escentual.com case: an introductory div, then the clauses as <li>.
    let items: String = (1..=10)
        .map(|i| format!("<li>{i}. The customer may cancel the order within fourteen days of delivery without giving any reason.</li>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<div class=page><div class=intro><p>Please read these terms and conditions carefully before ordering any products from our website.</p></div><ol class=terms>{items}</ol></div>{FRAME_BOTTOM}"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.most_common_style, "li");
    assert!(a.text.starts_with("Please read these terms"), "{}", a.text);
    assert!(a.text.ends_with("without giving any reason."));
}

#[test]
fn cookie_banner_does_not_win_on_a_short_imprint() {
    let html = "<html><body><div class=\"cookie-consent-banner\"><p>Wir verwenden optionale Statistik-Cookies, um unsere Dienste auf Grundlage Ihrer Aktivitäten zu optimieren. Ihre Einwilligung können Sie jederzeit widerrufen.</p><button>Alle akzeptieren</button></div>\
        <main><h1>Impressum</h1><div class=imprint><p>Beispiel GmbH</p><p>Musterstraße 1</p><p>12345 Musterstadt</p><p>Vertreten durch den Geschäftsführer Max Mustermann</p><p>Registergericht: Amtsgericht Hamburg, HRB 12345</p></div></main></body></html>";
    let a = analyze(html, &opts()).unwrap();
    assert!(!a.text.contains("Cookies"), "{}", a.text);
    assert!(a.text.contains("Amtsgericht Hamburg"));
}

#[test]
fn a_consent_tools_policy_named_like_its_banner_is_text() {
    // Complianz names its banner and the privacy statement it generates alike; the banner's
    // button must not make the statement look like a banner. The statement holds more prose
    // than the rest of the page, so pass 1 runs again with nothing skipped; the statement is
    // the document, and the banner, outside its container, stays out.
    let html = "<html lang=fr><body><main><article><h1>Politique de confidentialité</h1><div \
        id=cmplz-document class=\"cmplz-document privacy-statement\"><p>Dans cette déclaration \
        de confidentialité, nous expliquons ce que nous faisons avec les données que nous \
        obtenons à votre sujet via notre site.</p><h2>1. Partage avec d'autres parties</h2><p>Nous \
        partageons ces données uniquement avec des sous-traitants, comme notre transporteur pour \
        la livraison des commandes.</p><h2>2. Sécurité</h2><p>Nous prenons des mesures de \
        sécurité appropriées pour limiter les abus et les accès non autorisés aux données \
        personnelles.</p></div></article></main><aside><h2>Le conseil du mois</h2><p>En mars, \
        semez vos tomates au chaud, à l'abri de la lumière directe.</p></aside><div \
        class=cmplz-cookiebanner role=dialog><div class=cmplz-message>Pour offrir les meilleures \
        expériences, nous utilisons des cookies et des technologies similaires.</div><button \
        class=cmplz-accept>Accepter</button></div></body></html>";
    let a = analyze(html, &opts()).unwrap();
    assert!(
        a.text
            .starts_with("Politique de confidentialité\nDans cette"),
        "{}",
        a.text
    );
    assert!(a.text.trim_end().ends_with("personnelles."), "{}", a.text);
    assert!(!a.text.contains("meilleures expériences"), "{}", a.text);
}

#[test]
fn a_consent_tools_table_and_link_in_a_policy_are_text() {
    // A banner is a box; a consent tool's name on a table or a link names a part of the
    // document (the cookie table it generates, a link to the cookie policy in a sentence).
    let html = "<html><body><main><h1>Cookie Policy</h1><h2>1. Cookies we use</h2><p>The table \
        below lists the cookies currently set on our website and what they do.</p><table \
        class=cookielawinfo-row-cat-table><tr><th>Cookie</th><th>Description</th></tr><tr><td>_ga\
        </td><td>Calculates visitor, session and campaign data.</td></tr></table><h2>2. More</h2>\
        <p>To learn more about trackers, users may consult the <a href=/cookie-policy \
        class=iubenda-cs-cookie-policy-lnk>Cookie Policy</a> of this website at any time.</p>\
        </main></body></html>";
    let a = analyze(html, &opts()).unwrap();
    assert!(a.text.contains("Calculates visitor, session"), "{}", a.text);
    assert!(
        a.text.contains("consult the Cookie Policy of"),
        "{}",
        a.text
    );
}

#[test]
fn text_for_screen_readers_only_is_no_text() {
    // A skip link, a breadcrumb's hidden heading, share buttons' labels and a link's "(opens in
    // a new window)" are read out to screen readers and never seen.
    let html = format!(
        "<html><body><a class=\"screen-reader-text skip-link\" href=\"#main\">Skip to \
         content</a><nav class=breadcrumb><h2 class=visually-hidden>Breadcrumb</h2>\
         <a href=/>Home</a></nav><main id=main><h1>Privacy Policy</h1>\
         <ul class=share><li><span class=sr-only>Share on Twitter</span></li>\
         <li><span class=sr-only>Share on Facebook</span></li></ul>\
         <p>{POLICY_SENTENCE}</p><p>{POLICY_SENTENCE} Read our <a href=/cookies>cookie policy\
         <span class=\"govuk-visually-hidden\"> (opens in a new window)</span></a>.</p>\
         <p>{POLICY_SENTENCE}</p></main></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    for hidden in ["Skip to", "Breadcrumb", "Share on", "opens in a new window"] {
        assert!(!a.text.contains(hidden), "{hidden}: {}", a.text);
    }
    assert!(a.text.starts_with("Privacy Policy\n"), "{}", a.text);
    assert!(a.text.contains("Read our cookie policy."), "{}", a.text);
}

#[test]
fn a_breadcrumb_trail_beside_the_title_is_no_text() {
    // The trail ends with the title it stands beside, after a separator, and links back.
    for (before, after) in [
        (
            "<p><a href=/>Home</a> / <a href=/legal>Legal</a> / Privacy Policy</p>",
            "",
        ),
        ("", "<p><a href=/>Home</a> › Privacy Policy</p>"),
    ] {
        let html = format!(
            "<html><body><main>{before}<h1>Privacy Policy</h1>{after}<p>{POLICY_SENTENCE}</p>\
             <p>{POLICY_SENTENCE}</p><p>{POLICY_SENTENCE}</p></main></body></html>"
        );
        let a = analyze(&html, &opts()).unwrap();
        assert!(
            a.text.starts_with("Privacy Policy\nWe collect"),
            "{}",
            a.text
        );
        assert!(!a.text.contains("Home"), "{}", a.text);
    }
    // A line that links elsewhere but does not end with the title stays.
    let html = format!(
        "<html><body><main><h1>Privacy Policy</h1><p>See also: <a href=/terms>Terms</a> / \
         Cookies</p><p>{POLICY_SENTENCE}</p><p>{POLICY_SENTENCE}</p></main></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("See also"), "{}", a.text);
}

#[test]
fn a_side_column_holding_page_frame_is_no_closing_line() {
    // An imprint of short lines in the main column; the column beside it holds an `<aside>`
    // (opening hours): it must not be added as the document's closing lines.
    let html = "<html><body><header><a href=/>Holzwerk</a><nav><a href=/m>Möbel</a> \
        <a href=/k>Kontakt</a></nav></header><div class=content><div class=row>\
        <div class=col-8><h1>Impressum</h1><h2>Angaben gemäß § 5 TMG</h2><p>Holzwerk Müller \
        GmbH<br>Sägewerkstraße 12<br>79098 Freiburg</p><p>Handelsregister: HRB 712345<br>\
        Registergericht: Amtsgericht Freiburg</p><h2>Kontakt</h2><p>Telefon: +49 761 \
        1234567<br>E-Mail: info@holzwerk.example</p><h2>Streitbeilegung</h2><p>Wir sind nicht \
        bereit oder verpflichtet, an Streitbeilegungsverfahren vor einer \
        Verbraucherschlichtungsstelle teilzunehmen.</p></div><div class=col-4><aside>\
        <h3>Öffnungszeiten</h3><p>Mo–Fr 8–17 Uhr<br>Sa 9–13 Uhr</p></aside></div></div></div>\
        <footer><a href=/impressum>Impressum</a></footer></body></html>";
    let a = analyze(html, &opts()).unwrap();
    assert!(a.text.contains("Amtsgericht Freiburg"), "{}", a.text);
    assert!(!a.text.contains("Öffnungszeiten"), "{}", a.text);
    assert!(a.text.trim_end().ends_with("teilzunehmen."), "{}", a.text);
}

#[test]
fn hidden_content_is_extracted() {
    let html = format!(
        "{FRAME_TOP}<div class=content>{}<div class=\"accordion-body collapse\" style=\"display:none\" hidden><p>Versteckter Abschnitt über die Rücksendung der Ware an den Verkäufer.</p></div></div>{FRAME_BOTTOM}",
        clauses("AGB", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("Versteckter Abschnitt"));
}

#[test]
fn script_rendered_pages_are_reported() {
    let html = "<html><head><script src=/app.js></script></head><body><div id=root></div><noscript>Bitte JavaScript aktivieren.</noscript><script>window.__STATE__ = {\"agb\": \"...\"};</script></body></html>";
    match analyze(html, &opts()) {
        Err(e @ AnalyzeError::ScriptRendered(_)) => assert_eq!(e.kind(), "script_rendered"),
        other => panic!("expected script_rendered, got {other:?}"),
    }
}

#[test]
fn heading_in_a_title_box_with_a_language_menu() {
    let langs: String = ["English", "Deutsch", "Français", "Español", "Italiano"]
        .iter()
        .map(|l| format!("<li><a href=/{l}>{l}</a></li>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<div class=main><div class=eyebrow><h1>Privacy and Cookie Policy</h1><ul class=langs>{langs}</ul></div><div class=text>{}</div></div>{FRAME_BOTTOM}",
        clauses("Datenschutz", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.starts_with("Privacy and Cookie Policy\n(1)"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("Español"));
    assert_eq!(a.content.lead_in_elements, 1);
    assert!(a.content.path.contains("/h1 | "), "{}", a.content.path);
}

#[test]
fn boilerplate_inside_the_container_is_trimmed_at_the_edges() {
    let html = format!(
        "{FRAME_TOP}<article><p class=crumbs><a href=/>Startseite</a> › <a href=/agb>AGB</a></p><h1>AGB</h1>{}\
         <p><a href=#top>Zurück nach oben</a></p><p class=share>Teilen: <a href=/f>Facebook</a> <a href=/t>Twitter</a></p>\
         <p><a href=/print>Seite drucken</a></p><div class=nl>Newsletter abonnieren und 10 % sparen</div></article>{FRAME_BOTTOM}",
        clauses("AGB", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("AGB\n(1)"), "{}", a.text);
    assert!(a.text.ends_with("vollständigen Zahlung."), "{}", a.text);
    assert_eq!(
        (a.content.trimmed_blocks_start, a.content.trimmed_blocks_end),
        (1, 4)
    );
}

#[test]
fn a_label_left_before_a_trimmed_link_list_goes_with_it() {
    // Four links after the label are a link list: they go, and so does the label.
    let html = format!(
        "{FRAME_TOP}<main><h1>Datenschutzerklärung</h1>{}<p>Stand: Juni 2021</p><p><b>Weitere Links:</b></p>\
         <ul><li><a href=/agb>Nutzungsbedingungen</a></li><li><a href=/kontakt>Kontakt</a></li><li><a href=/impressum>Impressum</a></li>\
         <li><a href=/hilfe>Hilfe</a></li></ul></main>{FRAME_BOTTOM}",
        clauses("Datenschutz", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.ends_with("Stand: Juni 2021"), "{}", a.text);
    assert_eq!(a.content.trimmed_blocks_end, 5);
}

#[test]
fn the_documents_own_closing_links_are_kept() {
    // Up to three link lines after the last clause belong to the document (its previous
    // versions, the policies it refers to), as its publisher's copy keeps them; the
    // "back to top" after them is the site's.
    let html = format!(
        "{FRAME_TOP}<main><h1>Datenschutzerklärung</h1>{}<p>Stand: Juni 2021</p><p><b>Weitere Links:</b></p>\
         <ul><li><a href=/agb>Nutzungsbedingungen</a></li><li><a href=/impressum>Impressum</a></li>\
         <li><a href=/datenschutz/2019>Frühere Fassung</a></li></ul><p><a href=#top>Nach oben</a></p></main>{FRAME_BOTTOM}",
        clauses("Datenschutz", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .ends_with("Weitere Links:\nNutzungsbedingungen\nImpressum\nFrühere Fassung"),
        "{}",
        a.text
    );
    assert_eq!(a.content.trimmed_blocks_end, 1);
}

#[test]
fn split_content_is_joined_across_a_short_paragraph_between_the_containers() {
    // The clauses continue in a second container; between the two stands a one-line
    // paragraph in the body style (Jdate's privacy policy).
    let html = format!(
        "{FRAME_TOP}<main><article><div class=entry><div class=legal>{}</div>\
         <p>Die folgenden Regelungen gelten nur für Nutzer in den USA.</p>\
         <div class=legal>{}</div></div></article></main>{FRAME_BOTTOM}",
        clauses("Teil A", 18),
        clauses("Teil B", 2)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("(2) Teil B"), "{}", a.content.path);
    assert!(a.text.contains("nur für Nutzer in den USA"));
    // The two containers and the line between them: joined as siblings, or by taking their
    // common parent, whose extra is all prose.
    assert!(
        a.content.extended_siblings == 2 || a.content.path == "/html/body/main/article/div",
        "{}",
        a.content.path
    );
    assert_eq!(a.content.coverage, 1.0);
}

#[test]
fn title_line_beside_a_language_menu_without_a_heading_tag() {
    // Grindr: an eyebrow `div` with the title next to a language drop-down, several levels
    // above the text box.
    let langs: String = ["English", "Deutsch", "Français", "Español", "Italiano"]
        .iter()
        .map(|l| format!("<div role=listitem><a href=/{l}>{l}</a></div>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<div class=main><div class=main-content><div class=eyebrow><div class=row>\
         <div class=legal-title>TERMS OF SERVICE</div><div class=lang><div>Default</div><nav>{langs}</nav></div></div></div>\
         <div class=wrapper><div class=list><div class=item><div class=rich>{}</div></div></div></div></div></div>{FRAME_BOTTOM}",
        clauses("Terms", 8)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("TERMS OF SERVICE\n(1)"), "{}", a.text);
    assert!(!a.text.contains("Default") && !a.text.contains("Español"));
    assert_eq!(a.content.lead_in_elements, 1);
}

#[test]
fn a_document_title_box_at_body_level_is_the_title() {
    // AL 3D Print: `<div class=hero><h1>AGB</h1></div>` directly in the body before the
    // content; a site title there ("Willkommen im Shop") is not taken (see above).
    let html = format!(
        "<html><body><a class=back href=/>←</a><div class=hero><h1>AGB</h1></div><div class=content>{}</div></body></html>",
        clauses("AGB", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("AGB\n(1)"), "{}", a.text);
    assert_eq!(a.content.lead_in_elements, 1);
    // A box holding more than the heading is frame: of it, only the `h1` naming the document
    // is the title (since 2026-11-26), not the shop's promotion beside it.
    let html = format!(
        "<html><body><div class=hero><h1>AGB</h1><p>Kostenloser Versand ab 50 €</p></div><div class=content>{}</div></body></html>",
        clauses("AGB", 6)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("AGB\n(1)"), "{}", a.text);
    assert!(!a.text.contains("Versand ab"), "{}", a.text);
    // A hero box whose `h1` names no document stays out.
    let html = html.replace("<h1>AGB</h1>", "<h1>Willkommen</h1>");
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("(1)"), "{}", a.text);
}

#[test]
fn main_wins_over_a_site_wrapper_holding_template_paragraphs() {
    // bildblatt.de: a short imprint in <main>; the header's off-canvas panel holds a
    // paragraph of the same style, so the threshold is only reached by the whole site
    // wrapper.
    let html = "<html><body><div id=page class=site>\
        <div class=header><nav><a href=/>Shop</a> <a href=/k>Kontakt</a></nav>\
        <div class=offcanvas><p>Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>\
        <p>Where to find us: 123 John Street, New York</p></div></div>\
        <div class=content><main><h1>Impressum</h1><div class=text><p>BildBlatt ist ein Produkt der Beispiel UG mit Sitz in Augsburg.</p>\
        <p>Vertreten durch den Geschäftsführer Max Mustermann, Registergericht Augsburg.</p>\
        <p>Zur Teilnahme an einem Streitbeilegungsverfahren sind wir nicht verpflichtet.</p></div></main></div>\
        <footer><p>Copyright 2022 Beispiel UG. All rights reserved.</p></footer></div></body></html>";
    let a = analyze(html, &opts()).unwrap();
    assert!(a.text.starts_with("Impressum\nBildBlatt"), "{}", a.text);
    assert!(a.text.ends_with("nicht verpflichtet."), "{}", a.text);
    assert!(!a.text.contains("Lorem") && !a.text.contains("Copyright"));
}

#[test]
fn browser_and_reload_notices_above_the_text_are_not_content() {
    // A site prints notices about the reader's browser above the document, inside the
    // content's container and between its title and first section.
    let clause = "Diese Bedingungen gelten für alle Bestellungen, die Verbraucher über unseren Online-Shop abschließen.";
    let sections: String = (1..=5)
        .map(|i| format!("<h2>§ {i} Abschnitt</h2><p>({i}) {clause}</p>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<main><div class=page><p class=notice>A new version of this site is available, to keep everything running smoothly, please reload the page.</p>\
         <h1>Allgemeine Geschäftsbedingungen</h1><p class=notice>You are using a very old browser! Please update your browser.</p>{sections}</div></main>{FRAME_BOTTOM}"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.starts_with("Allgemeine Geschäftsbedingungen"),
        "{}",
        a.text
    );
    assert!(
        !a.text.contains("browser") && !a.text.contains("reload"),
        "{}",
        a.text
    );
    assert_eq!(a.text.matches(clause).count(), 5);
}

#[test]
fn a_document_printed_twice_is_kept_once() {
    // The whole policy a second time further down the page, no tabs or hidden panels: a
    // reader sees one document; a clause repeated on purpose is a smaller share and stays.
    let clause = "We keep personal information only as long as we need it for the purposes described in this policy, and then delete it.";
    let sections: String = (1..=10)
        .map(|i| format!("<h2>{i}. Section {i}</h2><p>Clause {i}: {clause}</p>"))
        .collect();
    let doc = format!("<div class=publication><h1>Privacy Statement</h1>{sections}</div>");
    let html = format!("{FRAME_TOP}<main>{doc}{doc}</main>{FRAME_BOTTOM}");
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.repeats_removed, 1, "{}", a.text);
    assert_eq!(a.text.matches("Privacy Statement").count(), 1, "{}", a.text);
    assert_eq!(a.text.matches(clause).count(), 10, "{}", a.text);
}

#[test]
fn a_tab_widget_repeated_in_every_section_is_kept_once() {
    // Bumble: the same tab box (hidden panels) printed after every section.
    let panel = |region: &str, hidden: &str| {
        format!(
            "<div role=tabpanel {hidden}><p>{region}: You make the first move by using the app, which is when we collect some information about you. \
             While enjoying our app you can also choose to share information with people you connect with, such as other members or your friends.</p></div>"
        )
    };
    let widget = format!(
        "<div class=tabs><div role=tablist><button role=tab>EU</button><button role=tab>US</button></div>{}{}</div>",
        panel("EU residents", ""),
        panel("US residents", "hidden")
    );
    let sections: String = (1..=4)
        .map(|i| {
            format!(
                "<h2>{i}. Section</h2><p>Clause {i}: We process personal information only where the law allows it and for the purposes described in this policy.</p>{widget}"
            )
        })
        .collect();
    let html = format!("{FRAME_TOP}<main>{sections}</main>{FRAME_BOTTOM}");
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.repeats_removed, 3);
    assert_eq!(a.text.matches("EU residents: You make").count(), 1);
    assert_eq!(
        a.text.matches("US residents: You make").count(),
        1,
        "hidden panels stay"
    );
    assert!(a.text.contains("Clause 4: We process"));
}

#[test]
fn a_single_paragraph_brings_its_container() {
    // diamondpainting's payment page: the body text is one long <p> with <br> lines, its
    // heading and labels are bold paragraphs around it, and a closing label follows it.
    let lines: String = (1..=12)
        .map(|i| format!("Zahlungsart {i}: Die Zahlung erfolgt sicher über unseren Zahlungsdienstleister.<br>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<main><div class=widget><h3>ES GELTEN FOLGENDE BEDINGUNGEN:</h3><p><strong>Lieferungen im Inland:</strong></p>\
         <p>{lines}</p><p><strong>Wir versenden unsere Artikel mit unseren Versandpartnern:</strong></p></div></main>{FRAME_BOTTOM}"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("ES GELTEN"), "{}", a.text);
    assert!(
        a.text.ends_with("mit unseren Versandpartnern:"),
        "{}",
        a.text
    );
    assert!(a.content.path.ends_with("/main/div"), "{}", a.content.path);
}

/// A short document (a heading, short lines, a table) under a newsletter block in the
/// `<footer>` whose paragraphs hold more text: the footer is page frame and does not decide
/// the most common style, so the content is the document, not the footer.
#[test]
fn a_footer_newsletter_does_not_outweigh_a_short_document() {
    let newsletter: String = (0..6)
        .map(|_| "<p>Subscribe to our newsletter and be the first to hear about new offers, events and stories from our team.</p>")
        .collect();
    let html = format!(
        "<html><body><nav><a href=/>Home</a> <a href=/legal>Legal</a></nav>\
         <div class=page><h1>List of sub-processors</h1>\
         <p>We use the following sub-processors to provide our services to you.</p>\
         <table><tr><td>Hosting provider in Frankfurt</td><td>Servers and storage for all data</td></tr>\
         <tr><td>Email delivery service in Dublin</td><td>Transactional email sent to customers</td></tr>\
         <tr><td>Payment processor in Amsterdam</td><td>Card payments and refunds for orders</td></tr></table></div>\
         <footer><div class=newsletter>{newsletter}</div><p>© 2026 Example Ltd.</p></footer></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.contains("Payment processor in Amsterdam"),
        "{}",
        a.text
    );
    assert!(a.text.contains("List of sub-processors"), "{}", a.text);
    assert!(
        !a.text.contains("Subscribe to our newsletter"),
        "{}",
        a.text
    );
}

/// ASCII art in a `<pre><code>` does not supply the most common style of an imprint; a legal
/// text that is itself one `<pre>` is still found (the frame counts again when nothing else
/// has prose).
#[test]
fn preformatted_text_is_not_prose_unless_it_is_all_there_is() {
    let art: String = (0..12)
        .map(|_| "<code>|  ___  ___  ___ |  ___  ___  ___ |  the art of our logo  |</code>\n")
        .collect();
    let html = format!(
        "<html><body><pre class=hide-mobile>{art}</pre><div class=imprint><h1>Imprint</h1>\
         <p>Example GmbH, Musterstraße 1, 10115 Berlin, represented by the managing director Max Muster.</p>\
         <p>Register court: Amtsgericht Berlin-Charlottenburg, register number HRB 12345.</p>\
         <p>VAT identification number according to section 27a of the German VAT act: DE123456789.</p></div>\
         </body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("HRB 12345"), "{}", a.text);
    assert!(!a.text.contains("the art of our logo"), "{}", a.text);
    let plain: String = (1..=12)
        .map(|i| format!("{i}. The customer may cancel the contract within fourteen days without giving any reason.\n"))
        .collect();
    let html = format!(
        "<html><body><nav><a href=/>Home</a></nav><pre>TERMS OF SERVICE\n{plain}</pre></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("12. The customer may cancel"), "{}", a.text);
}

/// A cookie *policy* whose container's class names it a cookie notice: a class name alone
/// never removes the page's main text (the banner test is dropped when the "banner" would
/// hold more prose than the rest of the page), while a real banner on a policy page is still
/// left out.
#[test]
fn a_class_name_never_removes_the_main_text() {
    let policy: String = (1..=8)
        .map(|i| format!("<p>{i}. We use cookies and similar technologies to remember your settings and to measure how our website is used by visitors.</p>"))
        .collect();
    let html = format!(
        "<html><body><nav><a href=/>Home</a></nav><div class=\"cookie-notice-content\">\
         <h1>Cookie Policy</h1>{policy}</div><footer><p>© Example</p></footer></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("8. We use cookies"), "{}", a.text);
    assert!(a.text.contains("Cookie Policy"), "{}", a.text);
    let with_banner = format!(
        "<html><body><div id=cookie-banner><p>We use cookies to give you the best experience on our website, click accept to continue.</p>\
         <button>Accept</button></div><main><h1>Cookie Policy</h1>{policy}</main></body></html>"
    );
    let a = analyze(&with_banner, &opts()).unwrap();
    assert!(a.text.contains("8. We use cookies"), "{}", a.text);
    assert!(!a.text.contains("click accept"), "{}", a.text);
    // A short policy with a settings button in it: the box holds the page's `h1`, which no
    // consent banner does.
    let short = "<p>Cookies are small text files that are placed on your device when you visit a \
                 website. We use them to remember your basket.</p><h2>Managing cookies</h2><p>You \
                 can change your choices at any time: <button>Cookie settings</button></p>";
    let html = format!(
        "<html><body><header><a href=/>Shop</a></header><div class=\"cookie-notice-content\">\
         <h1>Cookie Policy</h1>{short}</div><footer>© 2024 Shop</footer></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.starts_with("Cookie Policy\nCookies are small"),
        "{}",
        a.text
    );
    // The page's own `<body>` named after its topic (WordPress: `page-cookie-notice`), no
    // `h1` on the page.
    let html = format!(
        "<html><body class=\"page page-cookie-notice\"><h2>Cookie Notice</h2>{short}\
         <form><input type=email><button>Subscribe</button></form></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.starts_with("Cookie Notice\nCookies are small"),
        "{}",
        a.text
    );
}

/// A closing contact paragraph after the last section, in the same container as the clauses,
/// belongs to the document (the end must not come early); a comment box after it in another
/// container does not.
#[test]
fn the_closing_contact_paragraph_ends_the_document() {
    let items: String = (1..=8)
        .map(|i| format!("<li><p><strong>{i}. Section.</strong></p><p>The customer may cancel the order within fourteen days of delivery without giving any reason at all.</p></li>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<main><div class=wrap><div class=legal><h1>Terms of Use</h1><ol>{items}</ol>\
         <p><strong>QUESTIONS?</strong> <em>Please contact <a href=mailto:legal@example.com>legal@example.com</a> \
         if you have any questions about these terms.</em></p></div>\
         <div class=comments><p>Leave a comment below and tell us what you think about our new website design.</p></div></div></main>{FRAME_BOTTOM}"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .contains("if you have any questions about these terms."),
        "{}",
        a.text
    );
    assert!(!a.text.contains("Leave a comment"), "{}", a.text);
    assert_eq!(a.content.closing_elements, 1);
}

/// The title and the date line just above the text's container belong to the document even
/// without a heading tag: a short line that names a legal document, and a "Last updated …"
/// line. A navigation label above them does not.
#[test]
fn a_title_line_and_a_date_line_above_the_container_are_kept() {
    let clauses: String = (1..=6)
        .map(|i| format!("<p>{i}. We collect the personal data you give us when you create an account or place an order with us.</p>"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<div class=page><div class=crumbs><a href=/>Home</a> › <a href=/legal>Legal</a></div>\
         <div class=section><div class=section_inner><div class=section_title>Privacy Policy</div></div>\
         <div class=sub><p class=date><i>Last updated: 11 December 2025</i></p><div class=body>{clauses}</div></div></div></div>{FRAME_BOTTOM}"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .starts_with("Privacy Policy\nLast updated: 11 December 2025"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("Home"), "{}", a.text);
    // The same in German and French, with their ways of dating a version.
    for (title, date) in [
        (
            "Datenschutzerklärung",
            "Letzte Aktualisierung: 3. März 2025",
        ),
        ("Datenschutzerklärung", "Fassung vom 1. Mai 2024"),
        (
            "Politique de confidentialité",
            "Date d'entrée en vigueur : 1er mai 2024",
        ),
    ] {
        let page = html
            .replace("Privacy Policy", title)
            .replace("Last updated: 11 December 2025", date);
        let a = analyze(&page, &opts()).unwrap();
        assert!(
            a.text.starts_with(&format!("{title}\n{date}")),
            "{}",
            a.text
        );
    }
}

/// The content step records the candidate it ranked second: the fallback's run beside an LCA
/// choice, the element closest to the threshold beside a fallback choice.
#[test]
fn the_runner_up_is_recorded() {
    let html = format!(
        "{FRAME_TOP}<div class=wrap><div class=content><h1>AGB</h1>{}</div>\
         <div class=share><a href=/print>Drucken</a></div></div>{FRAME_BOTTOM}",
        clauses("Der Vertrag kommt zustande.", 12)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.method, ContentMethod::Lca);
    let runner = a.content.runner_up.as_ref().expect("a runner-up");
    assert_eq!(runner.method, ContentMethod::Fallback);
    assert_ne!(runner.path, a.content.path);
    assert!(runner.coverage > 0.0 && runner.coverage <= 1.0);
    // Two halves in separate boxes, neither reaching the threshold: the fallback is chosen and
    // the bigger box is the runner-up.
    let html = format!(
        "<html><body><div class=a>{}</div><div class=b>{}</div></body></html>",
        clauses("Erster Teil.", 6),
        clauses("Zweiter Teil.", 5)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.method, ContentMethod::Fallback);
    let runner = a.content.runner_up.as_ref().expect("a runner-up");
    assert_eq!(runner.method, ContentMethod::Lca);
    assert_eq!(runner.path, "/html/body/div[1]");
}

/// A small page whose clauses stand directly in `<body>` — headings, a bare link and a line of
/// text without a `<p>` between the paragraphs — is one run of the fallback, not its longest
/// paragraph; a page's wrapper and a hidden dialog beside it stay apart.
#[test]
fn body_level_paragraphs_are_one_run_across_headings_and_bare_text() {
    let sentence =
        "We keep the data you give us only as long as your account exists and never sell it.";
    let html = format!(
        "<html><head><title>Privacy</title></head><body><h1>Example Host</h1><p>This is the privacy policy of example host.</p>\
         <a href=/tos>TOS</a><br><h2>Cookies</h2><p>{sentence}</p>No one tracks you here, and nothing is sold to anyone at all.\
         <h2>Data</h2><p>{sentence} {sentence}</p><br><h3>Third parties</h3><p>{sentence} {sentence} {sentence}</p></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.method, ContentMethod::Fallback);
    for part in [
        "This is the privacy policy",
        "Cookies",
        "No one tracks you",
        "Data",
        "Third parties",
    ] {
        assert!(a.text.contains(part), "{part} missing: {}", a.text);
    }
    // A page wrapper and a dialog wrapper with an empty element between them: two runs.
    let dialog = format!("<div class=dialog><p>{sentence}</p><p>{sentence}</p></div>");
    let page = format!("<div class=page><p>{sentence}</p><p>{sentence}</p><p>{sentence}</p></div>");
    let html = format!("<html><body>{dialog}<span></span>{page}</body></html>");
    let a = analyze(&html, &opts()).unwrap();
    assert_eq!(a.content.method, ContentMethod::Fallback);
    // The run is the page wrapper alone, so it stands for the run of its paragraphs.
    assert_eq!(
        a.content.path,
        "/html/body/div[2]/p[1] | /html/body/div[2]/p[2] | /html/body/div[2]/p[3]"
    );
}

/// The LCA holds the threshold share of the main style, not all of it: the introduction and
/// first clauses in a text box above a table of the document, and the rest after it, are one
/// document. The ancestor is taken because what it adds is prose; one whose extra is the
/// page's navigation is not.
#[test]
fn the_opening_in_a_box_beside_the_container_is_kept() {
    let clause = |i: usize| {
        format!(
            "<p>{i}.1 The customer may end the contract at any time by written notice to us, without giving reasons.</p>"
        )
    };
    let rest: String = (2..=24).map(clause).collect();
    let html = format!(
        "{FRAME_TOP}<div class=grid><div class=items>\
         <div class=text><h1>General Terms of Use</h1><p><b>Published 1 March 2026, effective 1 April 2026. These terms replace all prior versions of them.</b></p>{}</div>\
         <div class=table><table><tr><td>Plan</td><td>Price</td></tr></table></div>\
         <div class=text><div class=inner>{rest}</div></div></div></div>{FRAME_BOTTOM}",
        clause(1)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .starts_with("General Terms of Use\nPublished 1 March 2026"),
        "{}",
        a.text
    );
    assert!(a.text.contains("1.1 The customer") && a.text.contains("24.1 The customer"));
    assert!(
        !a.text.contains("Über uns") && !a.text.contains("Impressum"),
        "{}",
        a.text
    );
}

#[test]
fn numbered_data_attributes_do_not_split_the_prose_style() {
    // A React page numbers every element (`data-reactid`): read as part of the look, each
    // paragraph had a style of its own, and the longest single paragraph — a promotion
    // beside the policy — decided where the text is.
    let paragraphs: String = (1..=8)
        .map(|i| {
            format!(
                "<p class=detail data-reactid=\"{}\">Section {i}. We collect the information you give us when you create an account and use our services.</p>\n",
                100 + i
            )
        })
        .collect();
    let promo = "Download the app today and get your first three rides for free, with no fees, no commitment and no hidden costs: the offer is valid in every city where we operate, for new riders only, until the end of the month, while stocks of promotional codes last.";
    let html = format!(
        "<html><body><div class=promo><p class=offer data-reactid=\"999\">{promo}</p></div>\n\
         <nav><a href=/a>Ride</a> <a href=/b>Drive</a></nav>\n\
         <div class=page><div class=policy><h1>Privacy Notice</h1>\n{paragraphs}</div></div></body></html>"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("Privacy Notice"), "{}", a.content.path);
    for i in 1..=8 {
        assert!(a.text.contains(&format!("Section {i}.")), "{}", a.text);
    }
    assert!(!a.text.contains("Download the app"), "{}", a.text);
}

#[test]
fn a_french_title_box_at_body_level_heads_the_content() {
    // The box holding only "Mentions légales" before the text names the document, as
    // "Impressum" or "Privacy Policy" do; a box with any other heading stays frame.
    let p = "L'éditeur du site est la société Exemple SARL, au capital de 10 000 euros, immatriculée au registre du commerce de Paris.";
    let page = |title: &str| {
        format!(
            "<html><body><nav><a href=/>Accueil</a> <a href=/boutique>Boutique</a></nav>\
             <div class=titre><h2>{title}</h2></div><div class=contenu><p>{p}</p><p>{p}</p><p>{p}</p></div>\
             <footer><p>© Exemple SARL</p></footer></body></html>"
        )
    };
    for title in [
        "Mentions légales",
        "Conditions générales de vente",
        "Politique de confidentialité",
    ] {
        let a = analyze(&page(title), &opts()).unwrap();
        assert!(a.text.starts_with(title), "{title}: {}", a.text);
    }
    let a = analyze(&page("Nos meilleures ventes"), &opts()).unwrap();
    assert!(a.text.starts_with("L'éditeur"), "{}", a.text);
}

#[test]
fn the_lead_in_stops_at_the_documents_own_title() {
    // The title box stands before the text box; one level up a side column's blurb stands
    // before both. The walk back takes the title and stops there: above the document's own
    // title is the site.
    let p = POLICY_SENTENCE;
    let page = format!(
        "<html><body><div class=site><div class=side><span class=blurb>This page holds our privacy \
         policy. Questions it leaves open can go to our support team at any time.</span></div>\
         <div class=main><div class=head><h1>Privacy Policy</h1></div><div class=text>\
         <p>{p}</p><p>{p}</p><p>{p}</p><p>{p}</p></div></div></div></body></html>"
    );
    let a = analyze(&page, &opts()).unwrap();
    assert!(a.text.starts_with("Privacy Policy"), "{}", a.text);
    // Without its own title the same walk still takes an introduction in prose.
    let untitled = page.replace("<div class=head><h1>Privacy Policy</h1></div>", "");
    let a = analyze(&untitled, &opts()).unwrap();
    assert!(a.text.starts_with("This page holds"), "{}", a.text);
}

#[test]
fn a_menus_heading_is_no_title() {
    // A box of links before the text: its own heading is the title (a language menu beside
    // it), a heading inside its drop-down list is not.
    let p = POLICY_SENTENCE;
    let page = |bar: &str| {
        format!(
            "<html><body><div class=site><div class=bar>{bar}</div><div class=text>\
             <p>{p}</p><p>{p}</p><p>{p}</p><p>{p}</p></div></div><footer>© Example</footer></body></html>"
        )
    };
    let languages = "<h1>Terms of Use</h1><a href=/en>English</a> <a href=/de>Deutsch</a> <a href=/fr>Français</a>";
    let a = analyze(&page(languages), &opts()).unwrap();
    assert!(a.text.starts_with("Terms of Use\nWe collect"), "{}", a.text);
    let drop_down = "<ul><li><h4>Products</h4><a href=/a>Events</a> <a href=/b>Apps</a> <a href=/c>Analytics</a></li></ul>";
    let a = analyze(&page(drop_down), &opts()).unwrap();
    assert!(a.text.starts_with("We collect"), "{}", a.text);
}

#[test]
fn a_box_named_footer_is_no_closing_line() {
    // After the last clause, in the same container: a closing contact line joins the text, a
    // `div` the site names its footer does not (as a `<footer>` would not).
    let p = POLICY_SENTENCE;
    let page = |tail: &str| {
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/x>Blog</a></nav><div class=wrap><div class=text>\
             <h1>Terms of Service</h1><p>{p}</p><p>{p}</p><p>{p}</p><p>{p}</p></div>{tail}</div></body></html>"
        )
    };
    let contact = "<div class=contact>Questions? Write to legal@example.com.</div>";
    let a = analyze(&page(contact), &opts()).unwrap();
    assert!(a.text.ends_with("legal@example.com."), "{}", a.text);
    let footer =
        "<div class=\"main footer\">Copyright © 2006–2020 Example Ltd. All rights reserved.</div>";
    let a = analyze(&page(footer), &opts()).unwrap();
    assert!(a.text.ends_with("your questions."), "{}", a.text);
}

#[test]
fn the_lead_in_walks_past_a_tiny_action_line_to_the_title() {
    // "Print | Save" between the title and the text ends nothing; a real menu there does.
    let p = POLICY_SENTENCE;
    let page = |between: &str| {
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/jobs>Jobs</a></nav><div class=site><div class=page>\
             <h1>Terms &amp; Conditions</h1>{between}<div class=text><p>{p}</p><p>{p}</p><p>{p}</p><p>{p}</p></div>\
             </div></div></body></html>"
        )
    };
    let actions = "<p class=actions><a href=#print>Print</a> | <a href=/t.pdf>Save</a></p>";
    let a = analyze(&page(actions), &opts()).unwrap();
    assert!(a.text.starts_with("Terms & Conditions"), "{}", a.text);
    let menu = "<ul class=tabs><li><a href=/terms>Terms of Service for members</a></li><li><a href=/privacy>Privacy Policy for members</a></li></ul>";
    let a = analyze(&page(menu), &opts()).unwrap();
    assert!(a.text.starts_with("We collect"), "{}", a.text);
}

/// A clause whose sub-items sit in a `div` opened inside the `p` (`<p>4.2 …: <div>4.2.1 …</p>
/// <p>4.2.2 …</p></div>`): the `div` closes the `p`, so the stray `</p>` closes nothing and the
/// `</div>` its own `div`, as in a browser. Pairing end tags as a simple stack does, the `</p>`
/// closed the `div` and each later `</div>` one container further out, until the clauses after
/// them fell outside the document's column.
#[test]
fn misnested_end_tags_do_not_cut_the_document_off_its_column() {
    let clause = |n: usize| {
        format!(
            "<p>{n}.1 {POLICY_SENTENCE}: <div class=indent>{n}.1.1 {POLICY_SENTENCE}:</p>\
             <p>{n}.1.2 {POLICY_SENTENCE}</p></div>\n"
        )
    };
    let body: String = (1..=4).map(clause).collect();
    let tail: String = (0..6)
        .map(|i| format!("<p>Appendix clause {i}: {POLICY_SENTENCE}</p>\n"))
        .collect();
    let html = format!(
        "{FRAME_TOP}<div class=page><div class=row><div class=col>\n<h1>Terms and Conditions</h1>\n\
         <div class=section>{body}</div>\n<h2>Appendix</h2>\n{tail}</div>\n\
         <div class=sidebar><p>Sign up for our newsletter and get news about our products every week.</p></div>\n\
         </div></div>\n{FRAME_BOTTOM}"
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("Terms and Conditions"), "{}", a.text);
    assert!(a.text.contains("Appendix clause 5"), "{}", a.content.path);
    assert!(!a.text.contains("newsletter"), "{}", a.content.path);
}

/// A plain-text document on a web page, kept in one `<pre>`: its lines are shown as they are,
/// so a blank line ends a paragraph, a clause number or list marker opens a new block, and a
/// short line without a sentence's end is a title; the lines of a wrapped sentence are one.
#[test]
fn preformatted_text_keeps_its_paragraphs_and_titles() {
    let html = "<html><body><pre>\
Example Terms of Service

1. TERMS AND CONDITIONS
1.1 By using the service you agree to these terms, which govern
your use of the service and replace all earlier agreements.
1.2 You must not use the service
a) to harm another person, or
b) for any unlawful purpose.

2. CONTACT
Example Ltd
1 High Street
London
</pre></body></html>";
    let a = analyze(html, &opts()).unwrap();
    let lines: Vec<&str> = a.text.lines().collect();
    assert!(
        lines.contains(&"1.1 By using the service you agree to these terms, which govern your use of the service and replace all earlier agreements."),
        "{}",
        a.text
    );
    assert!(
        lines.contains(&"a) to harm another person, or"),
        "{}",
        a.text
    );
    assert!(lines.contains(&"1 High Street"), "{}", a.text);
    let titles: Vec<String> = a.sections.iter().filter_map(|s| s.title.clone()).collect();
    assert_eq!(
        titles,
        ["1. TERMS AND CONDITIONS", "2. CONTACT"],
        "{:#?}",
        a.sections
    );
}

/// A dialog over the page (a survey with its own privacy notice, hidden until opened) is not
/// the document: its paragraphs, styled like the document's, must not pull the content's
/// container up to the page around both.
#[test]
fn a_dialog_beside_the_document_is_not_part_of_it() {
    let notice: String = (0..3)
        .map(|i| format!("<p>Survey notice {i}: {POLICY_SENTENCE} {POLICY_SENTENCE}</p>"))
        .collect();
    for dialog in [
        format!("<div class=survey role=dialog>{notice}<button>Start survey</button></div>"),
        format!("<section class=popup aria-modal=true>{notice}</section>"),
        format!("<dialog>{notice}</dialog>"),
    ] {
        let html = format!(
            "{FRAME_TOP}<main><div class=doc><h1>Terms of Use</h1>{}</div>{dialog}</main>{FRAME_BOTTOM}",
            clauses("AGB", 5)
        );
        let a = analyze(&html, &opts()).unwrap();
        assert!(a.text.starts_with("Terms of Use"), "{}", a.text);
        assert!(
            !a.text.contains("Survey notice"),
            "{}: {}",
            a.content.path,
            a.text
        );
    }
}

#[test]
fn headings_right_before_body_level_clauses_head_them() {
    // Clauses directly in <body>: the run starts at the first paragraph, and the title and the
    // first clause's heading standing right before it belong to it.
    let para = |i: usize| format!("<p>{POLICY_SENTENCE} Clause {i} applies to every account.</p>");
    let html = format!(
        "<html><body><h2>Terms of Service</h2><h3>1. Accepting the Terms</h3>{}{}<h3>2. Using the Service</h3>{}{}</body></html>",
        para(1),
        para(2),
        para(3),
        para(4)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .starts_with("Terms of Service\n1. Accepting the Terms\nWe collect"),
        "{}",
        a.text
    );
    assert_eq!(a.content.lead_in_elements, 2);
    // A title with text between it and the clauses is not taken (even one naming the
    // document); the numbered heading right before them is.
    let html = format!(
        "<html><body><h2>Terms of Service</h2>Latest posts below.<h3>1. Accepting the Terms</h3>{}{}{}</body></html>",
        para(1),
        para(2),
        para(3)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("1. Accepting the Terms\n"), "{}", a.text);
    assert!(!a.text.contains("Terms of Service"), "{}", a.text);
}

#[test]
fn a_title_box_beside_a_text_box_with_closing_lines_is_the_title() {
    // The most common style is the list's: its items are the LCA's, the heading and the
    // paragraph after the list are closing lines, and only with them does the content fill
    // its box, whose sibling box holds the document's title.
    let item = |i: usize| format!("<li>{POLICY_SENTENCE} Item {i}.</li>");
    let html = format!(
        "<html><body><section><div class=container><div class=row>\
         <div class=\"col text-center\"><h2>Privacy policy</h2><h3 class=muted></h3></div>\
         <div class=col><h3>Information we collect</h3><ul>{}{}{}</ul>\
         <h3>How we store it</h3><p>Our host stores the data in its data centres under its own terms.</p></div>\
         </div></div></section>{FRAME_BOTTOM}",
        item(1),
        item(2),
        item(3)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text
            .starts_with("Privacy policy\nInformation we collect\nWe collect"),
        "{}",
        a.text
    );
    assert!(a.text.ends_with("under its own terms."), "{}", a.text);
}

#[test]
fn the_introduction_under_the_documents_title_at_body_level_is_kept() {
    // body > h1, two introduction paragraphs, the clauses as a list: the title heads the
    // introduction, and both belong to the document.
    let item = |i: usize| format!("<li>{POLICY_SENTENCE} Rule {i} applies to every player.</li>");
    let intro = "<p><strong>Important notice:</strong> these terms contain an arbitration clause.</p>\
                 <p>Please read these terms carefully before you use the app.</p>";
    let html = format!(
        "<html><body><h1>Quiz Terms of Use</h1>{intro}<ol>{}{}{}{}</ol></body></html>",
        item(1),
        item(2),
        item(3),
        item(4)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.starts_with("Quiz Terms of Use\nImportant notice:"),
        "{}",
        a.text
    );
    // Without the document's title above it, a paragraph before the list is not taken.
    let html = format!(
        "<html><body><h2>Latest news</h2>{intro}<ol>{}{}{}{}</ol></body></html>",
        item(1),
        item(2),
        item(3),
        item(4)
    );
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.starts_with("We collect"), "{}", a.text);
}

#[test]
fn a_menu_of_the_sites_other_policies_under_the_title_is_not_content() {
    // The title, then links to the site's other legal pages, then the text: the menu goes;
    // a table of contents (links into the page) and a print link stay.
    let text: String = (1..=6)
        .map(|i| format!("<p>{POLICY_SENTENCE} Point {i}.</p>"))
        .collect();
    let menu = "<div class=page-nav><span>Privacy Policy</span> <a href=/terms>Terms of Use</a> \
                <a href=/tickets>Ticket Policy</a> <a href=/cookies>Cookies and Tracking</a></div>";
    let html =
        format!("<html><body><main><h1>Privacy Policy</h1>{menu}{text}</main></body></html>");
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.starts_with("Privacy Policy\nWe collect"),
        "{}",
        a.text
    );
    let toc = "<ul><li><a href=#data>Data we collect</a></li><li><a href=#use>How we use it</a></li>\
               <li><a href=#rights>Your rights</a></li></ul>";
    let html = format!("<html><body><main><h1>Privacy Policy</h1>{toc}{text}</main></body></html>");
    let a = analyze(&html, &opts()).unwrap();
    assert!(
        a.text.contains("Data we collect\nHow we use it"),
        "{}",
        a.text
    );
    let print = "<p><a href=/privacy.pdf>Print or download as PDF file</a></p>";
    let html =
        format!("<html><body><main><h1>Privacy Policy</h1>{print}{text}</main></body></html>");
    let a = analyze(&html, &opts()).unwrap();
    assert!(a.text.contains("Print or download"), "{}", a.text);
}

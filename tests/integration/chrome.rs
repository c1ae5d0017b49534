//! The site's chrome just around a legal text on pages nobody tuned on: a side column's
//! label, a hero box with the title and date, a breadcrumb set as a list, utility links.

use tcx::{AnalysisOptions, analyze};

fn text_of(html: &str) -> String {
    analyze(html, &AnalysisOptions::default()).unwrap().text
}

const SECTIONS: &str = "<h2>1. Accounts</h2><p>You must provide accurate and complete \
    information when creating an account and keep it up to date at all times.</p><h2>2. Fees</h2>\
    <p>Paid plans are billed in advance on a monthly or annual basis. All fees are \
    non-refundable except as stated in these terms.</p>";

#[test]
fn a_side_column_gives_no_title() {
    // A sticky table of contents beside the article: its label is no part of the document.
    let html = format!(
        "<html><body><header><a href=/>Loopwise</a> <a href=/pricing>Pricing</a></header><main>\
         <div class=layout><aside class=toc><p><strong>On this page</strong></p><a href=#a>1. \
         Accounts</a><a href=#b>2. Fees</a></aside><article><h1>Terms of Service</h1><p>Last \
         updated: February 20, 2024</p>{SECTIONS}</article></div></main><footer>© 2024 \
         Loopwise</footer></body></html>"
    );
    let text = text_of(&html);
    assert!(text.starts_with("Terms of Service\nLast updated"), "{text}");
}

#[test]
fn a_hero_box_with_the_title_and_its_date_opens_the_document() {
    // The title and date stand in a section of their own before the policy's section, both
    // among the body's children; the title names no document the vocabulary knows.
    let html = format!(
        "<html><body><header><a href=/>Nimbus</a> <a href=/vps>Cloud VPS</a></header>\
         <section class=hero><div class=wrap><h1>Acceptable Use Policy</h1><p>Effective date: \
         1 January 2024</p></div></section><section class=policy><div class=wrap><p>This policy \
         sets out the rules that apply to all customers of Nimbus Hosting Ltd and forms part of \
         our Terms of Service.</p>{SECTIONS}</div></section><footer>© 2024 Nimbus Hosting \
         Ltd</footer></body></html>"
    );
    let text = text_of(&html);
    assert!(
        text.starts_with("Acceptable Use Policy\nEffective date: 1 January 2024\nThis policy"),
        "{text}"
    );
    // The date set in an element of its own is the same date line.
    let timed = html.replace(
        "1 January 2024</p>",
        "<time datetime=2024-01-01>1 January 2024</time></p>",
    );
    let text = text_of(&timed);
    assert!(
        text.starts_with("Acceptable Use Policy\nEffective date: 1 January 2024\nThis policy"),
        "{text}"
    );
    // A box with a lone `h1` that names no document and no date line stays out: a theme's
    // page title, not the document's.
    let html = html.replace("<p>Effective date: 1 January 2024</p>", "");
    let text = text_of(&html);
    assert!(text.starts_with("This policy"), "{text}");
}

#[test]
fn the_current_pages_crumb_is_no_text() {
    // A breadcrumb set as a list: "Home" links back, the current page's crumb repeats the
    // title after it.
    let html = format!(
        "<html><body><main><div class=page-intro><ul class=breadcrumb><li><a href=/>Home</a>\
         </li><li>Privacy Notice</li></ul><h1>Privacy Notice</h1></div><div class=legal><p>Last \
         updated: 12 February 2024</p>{SECTIONS}</div></main></body></html>"
    );
    let text = text_of(&html);
    assert!(text.starts_with("Privacy Notice\nLast updated"), "{text}");
}

#[test]
fn french_utility_links_at_the_end_are_no_text() {
    let html = "<html lang=fr><body><div class=main><h1>Conditions Générales de Vente</h1>\
        <div class=cms><p><strong>ARTICLE 1 - CHAMP D'APPLICATION</strong></p><p>Les présentes \
        conditions générales de vente s'appliquent à toutes les ventes conclues sur le site entre \
        la société et tout client.</p><p><strong>ARTICLE 2 - DROIT APPLICABLE</strong></p><p>Les \
        présentes conditions sont soumises à la loi française.</p><p><a \
        href=\"javascript:window.print()\">Imprimer cette page</a> | <a href=#top>Retour en \
        haut</a></p></div></div><footer>© 2024 Maison Lavande</footer></body></html>";
    let text = text_of(html);
    assert!(
        text.trim_end().ends_with("soumises à la loi française."),
        "{text}"
    );
}

#[test]
fn a_side_column_named_by_its_class_is_page_frame() {
    // A short imprint beside a theme's widget column (no `<aside>`): the column's teaser, a
    // sentence in the page's paragraph style, must neither pull the container up nor join
    // the imprint as its closing lines.
    let html = "<html><body><header><a href=/>Start</a> <a href=/kontakt>Kontakt</a></header>\
        <div class=row><div class=content-area><h1>Impressum</h1><p>Tischlerei Holzwerk Becker \
        GmbH, Lindenstraße 27, 49074 Osnabrück. Vertreten durch den Geschäftsführer Thomas \
        Becker.</p><p>Registergericht: Amtsgericht Osnabrück, Registernummer: HRB 204567. \
        Umsatzsteuer-ID: DE 298765432.</p></div><div class=sidebar><div class=widget><div \
        class=widget-title>Öffnungszeiten</div><p>Mo–Fr 7:00–16:30 Uhr</p></div><div \
        class=widget><div class=widget-title>Jetzt Angebot anfordern</div><p>Sie planen eine \
        Treppe nach Maß? Rufen Sie uns an.</p><a class=btn href=/kontakt>Zum \
        Kontaktformular</a></div></div></div><footer>© 2024 Holzwerk Becker</footer></body>\
        </html>";
    let text = text_of(html);
    assert!(text.starts_with("Impressum\nTischlerei"), "{text}");
    assert!(text.trim_end().ends_with("DE 298765432."), "{text}");
}

#[test]
fn a_footer_named_by_its_class_is_page_frame() {
    // A page builder's footer is a `<div>` (Elementor's `elementor-location-footer`), not a
    // `<footer>`: its tagline and copyright line, sentences in the page's paragraph style,
    // must not pull the content out of `<main>` nor end the privacy policy.
    let html = "<html><body><main id=content><div class=elementor><h1>Datenschutzerklärung</h1>\
        <h2>1. Datenschutz auf einen Blick</h2><p>Die folgenden Hinweise geben einen einfachen \
        Überblick darüber, was mit Ihren personenbezogenen Daten passiert, wenn Sie diese Website \
        besuchen.</p><h2>2. Hosting</h2><p>Diese Website wird extern gehostet. Die \
        personenbezogenen Daten, die auf dieser Website erfasst werden, werden auf den Servern \
        des Hosters gespeichert.</p><p>Quelle: <a href=https://www.e-recht24.de>e-recht24.de</a>\
        </p></div></main><div data-elementor-type=footer class=\"elementor elementor-28 \
        elementor-location-footer\"><h4>Glasbläserei Winterfeld</h4><p>Mundgeblasener \
        Christbaumschmuck aus Lauscha – seit vier Generationen in Familienhand.</p><p>© 2025 \
        Glasbläserei Winterfeld · Alle Preise inkl. MwSt. zzgl. Versandkosten</p></div></body>\
        </html>";
    let text = text_of(html);
    assert!(
        text.starts_with("Datenschutzerklärung\n1. Datenschutz"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("Quelle: e-recht24.de"), "{text}");
}

#[test]
fn a_share_widget_or_a_feedback_question_after_the_text_is_no_text() {
    // Jetpack's share box (its label a heading) and a help centre's "Was this page helpful?"
    // with its two buttons close the article, not the policy.
    for widget in [
        "<div class=sharedaddy><h3 class=sd-title>Share this:</h3><ul><li><a \
         href=\"?share=facebook\">Facebook</a></li><li><a href=\"?share=x\">X</a></li></ul></div>",
        "<div class=feedback><p>Was this page helpful?</p><button>Yes</button> \
         <button>No</button></div>",
    ] {
        let html = format!(
            "<html><body><main><article><h1>Privacy Policy</h1>{SECTIONS}<h2>3. Contact</h2><p>\
             Questions about this policy can be sent to privacy@example.com or by post to our \
             shop.</p>{widget}</article></main></body></html>"
        );
        let text = text_of(&html);
        assert!(text.trim_end().ends_with("by post to our shop."), "{text}");
    }
}

#[test]
fn a_closing_statement_that_mentions_the_cookie_settings_is_text() {
    // A site phrase inside the document's own last statement does not make it furniture.
    let html = "<html><body><main><article><h1>Cookie Policy</h1><h2>1. What are cookies?</h2>\
        <p>Cookies are small text files stored on your device when you visit our website. They \
        help the site remember your basket and preferences.</p><h2>2. Managing cookies</h2><p>You \
        can change your consent at any time using the cookie settings link in the footer of \
        every page.</p></article></main></body></html>";
    let text = text_of(html);
    assert!(text.trim_end().ends_with("footer of every page."), "{text}");
}

#[test]
fn a_table_of_contents_beside_the_text_gives_no_title() {
    // A grid of a contents column ("On this page" over jump links) and the text, under a hero
    // box with the title and its date: the column is walked past, the title is found above.
    for toc in ["div class=legal-toc", "nav class=legal-toc"] {
        let tag = toc.split(' ').next().unwrap_or("div");
        let html = format!(
            "<html><body><main><section class=hero><h1>Terms of Sale</h1><div class=meta>Effective \
             from 1 April 2024</div></section><section class=legal><div class=grid><{toc}><div \
             class=toc-label>On this page</div><a href=\"#s1\"><div>1. Accounts</div></a><a \
             href=\"#s2\"><div>2. Fees</div></a></{tag}><div class=legal-content>{SECTIONS}</div>\
             </div></section></main></body></html>"
        );
        let text = text_of(&html);
        assert!(
            text.starts_with("Terms of Sale\nEffective from 1 April 2024\n1. Accounts"),
            "{toc}: {text}"
        );
    }
}

#[test]
fn a_hero_box_with_the_named_h1_and_a_tagline_gives_its_h1() {
    // The hero box holds the document's name as its `h1` and a tagline: the `h1` opens the
    // document, the tagline stays with the site's hero.
    let html = "<html><body><header><nav><a href=/>Bäckerei Vollkorn</a> <a \
        href=/sortiment>Sortiment</a></nav></header><section class=hero><h1>Datenschutz</h1><p \
        class=lead>Wie wir mit Ihren Daten umgehen</p></section><div class=legal><h2>Präambel</h2>\
        <p>Mit der folgenden Datenschutzerklärung möchten wir Sie darüber aufklären, welche \
        Arten Ihrer personenbezogenen Daten wir zu welchen Zwecken verarbeiten.</p><h2>Rechte der \
        betroffenen Personen</h2><p>Ihnen stehen als Betroffene nach der DSGVO verschiedene Rechte \
        zu, die sich insbesondere aus Art. 15 bis 21 DSGVO ergeben.</p></div><footer><a \
        href=/impressum>Impressum</a></footer></body></html>";
    let text = text_of(html);
    assert!(text.starts_with("Datenschutz\nPräambel"), "{text}");
}

#[test]
fn a_promotion_above_a_content_with_its_own_title_is_no_title() {
    // The policy opens with its own title line; a newsletter box's heading before it (a
    // pop-up's form, one level up) is the site's, not the document's.
    let html = "<html><body><header><a href=/>Sportsco</a> <a href=/men>Men</a></header>\
         <div class=page><div class=promo><h3>Sign up for news &amp; get 15% off</h3><label>\
         <input type=checkbox> Yes, I am over 13</label> <button>Sign up</button></div>\
         <div class=asset><p><strong>Privacy Policy</strong></p><p><strong>What we \
         collect</strong></p><p>We collect the information you give us when you place an \
         order, such as your name, your address and your payment details.</p><p><strong>How \
         we use it</strong></p><p>We use your information to process your orders, to answer \
         your questions and, if you agree, to send you news about our products.</p></div>\
         </div><footer>© 2024 Sportsco Inc.</footer></body></html>";
    let text = text_of(html);
    assert!(
        text.starts_with("Privacy Policy\nWhat we collect"),
        "{text}"
    );
    // The page's own `h1` there is still the document's.
    let html = html.replace(
        "<h3>Sign up for news &amp; get 15% off</h3>",
        "<h1>Legal</h1>",
    );
    let text = text_of(&html);
    assert!(text.starts_with("Legal\n"), "{text}");
}

#[test]
fn the_page_title_right_before_the_article_is_the_documents() {
    // Drupal's themes: the page title block stands before the node's `<article>`, whose body
    // field holds the text.
    let html = format!(
        "<html><body><header><a href=/>Brightwell</a> <a href=/labs>Labs</a></header><main>\
         <div class=block-page-title><h1>Legal notice</h1></div><article><div \
         class=field--name-body><p>Information in accordance with Section 5 of the German \
         Telemedia Act (TMG).</p>{SECTIONS}</div></article></main><footer>© 2024 \
         Brightwell</footer></body></html>"
    );
    let text = text_of(&html);
    assert!(text.starts_with("Legal notice\nInformation"), "{text}");
    // Only the title: a byline and share buttons between it and the article stay out.
    let html = html.replace(
        "</div><article>",
        "</div><div class=meta>By the editors | Share on Facebook | Print</div><article>",
    );
    let text = text_of(&html);
    assert!(text.starts_with("Information"), "{text}");
}

#[test]
fn a_content_box_called_widget_is_content() {
    // Plentymarkets' ShopBuilder calls every content box a `widget`; the list of clauses and
    // the place and date after it are the text, and a TYPO3 `section-sidebar` beside it is
    // the page frame.
    let html = "<html><body><div class=section-row><div class=section-sidebar><div \
        class=frame><h3>Ihr Ansprechpartner</h3><p>Vertriebsinnendienst<br>Tel. 0231 44 88 0\
        </p></div></div><main><h1>Allgemeine Geschäftsbedingungen</h1><div class=\"widget \
        widget-text\"><ol><li>Diese AGB gelten für alle Bestellungen über unseren Online-Shop \
        durch Verbraucher.</li><li>Abweichende Bedingungen des Kunden werden nicht anerkannt, \
        es sei denn, wir stimmen zu.</li><li>Es gilt das Recht der Bundesrepublik Deutschland \
        unter Ausschluss des UN-Kaufrechts.</li></ol><p>Göttingen, im Januar 2024</p></div>\
        </main></div></body></html>";
    let text = text_of(html);
    assert!(
        text.starts_with("Allgemeine Geschäftsbedingungen\n"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("Göttingen, im Januar 2024"),
        "{text}"
    );
}

#[test]
fn a_kicker_over_the_title_is_no_text() {
    // A theme's category label over the document's `h1`; a line naming the document there is
    // part of its title and stays.
    let html = format!(
        "<html><body><nav><a href=/>Stackpilot</a> <a href=/docs>Docs</a></nav><main><article>\
         <header><p class=eyebrow>Legal</p><h1>Terms of Service</h1><p>Last updated February \
         1, 2024</p></header>{SECTIONS}</article></main></body></html>"
    );
    let text = text_of(&html);
    assert!(text.starts_with("Terms of Service\nLast updated"), "{text}");
    let html = html.replace(">Legal<", ">Terms of Service<");
    let text = text_of(&html);
    assert!(
        text.starts_with("Terms of Service\nTerms of Service\n"),
        "{text}"
    );
}

#[test]
fn a_call_to_action_after_the_text_is_no_text() {
    // A page builder's last section invites the reader elsewhere; cards for the other legal
    // pages do the same. A bare list of links under a heading stays (the golds keep it).
    let html = format!(
        "<html><body><main><div id=wrap><section><h1>Terms of Service</h1></section><section>\
         {SECTIONS}<p><a href=/cgu.pdf>Télécharger le PDF</a></p></section><section \
         class=s_call_to_action><h3>Un projet sur-mesure ?</h3><p>\
         Venez nous rencontrer à l'atelier, du mardi au samedi.</p><p><a class=btn \
         href=/contactus>Prendre rendez-vous</a></p></section><div class=teaser><h3>Mentions \
         légales</h3><p>Éditeur, hébergeur et informations réglementaires.</p><a \
         href=/mentions-legales>Lire</a></div></div></main></body></html>"
    );
    let text = text_of(&html);
    assert!(
        text.trim_end()
            .ends_with("except as stated in these terms."),
        "{text}"
    );
    let html = html.replace(
        "<p>Éditeur, hébergeur et informations réglementaires.</p>",
        "<p><a href=/cgv>Conditions de vente</a></p>",
    );
    let text = text_of(&html);
    assert!(text.trim_end().ends_with("Lire"), "{text}");
}

#[test]
fn a_posts_publication_details_are_no_text() {
    // Joomla's article details and a WordPress theme's entry meta between the title and the
    // text: what the CMS says about the page. Zendesk's `section.article-info` holds the
    // whole article and stays.
    let joomla = format!(
        "<html><body><main><div class=item-page><div class=page-header><h1>Conditions \
         générales de vente</h1></div><dl class=\"article-info text-muted\"><dt>Détails</dt>\
         <dd class=hits>Affichages : 1532</dd></dl><div class=body>{SECTIONS}</div></div>\
         </main></body></html>"
    );
    let text = text_of(&joomla);
    assert!(
        text.starts_with("Conditions générales de vente\n1. Accounts"),
        "{text}"
    );
    let wordpress = format!(
        "<html><body><main><article><header class=entry-header><h1>Impressum</h1><div \
         class=entry-meta><span class=posted-on>Veröffentlicht am 12. Januar 2024</span> von \
         admin</div></header><div class=entry-content>{SECTIONS}</div></article></main>\
         </body></html>"
    );
    let text = text_of(&wordpress);
    assert!(text.starts_with("Impressum\n1. Accounts"), "{text}");
    let zendesk = format!(
        "<html><body><main><article><h1>Terms of Service</h1><section \
         class=article-info>{SECTIONS}</section></article></main></body></html>"
    );
    let text = text_of(&zendesk);
    assert!(text.starts_with("Terms of Service\n1. Accounts"), "{text}");
}

//! Unit tests of the page and section types, on Documents built by hand (the analysis of
//! whole pages is tested through the public API in `tests/integration/analysis.rs`).

use super::*;
use crate::model::{ErrorInfo, Source, Status};

/// A section with a title (numbered when it starts with `§`), paragraphs and subsections.
fn sec(title: &str, paragraphs: &[&str], subsections: Vec<Section>) -> Section {
    let number = title.starts_with('§').then(|| {
        title
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    });
    let mut s = Section::new((!title.is_empty()).then(|| title.to_owned()), number, 1);
    s.paragraphs = paragraphs.iter().map(|p| (*p).to_owned()).collect();
    s.subsections = subsections;
    s
}

/// An ok Document with a page title, an address and sections, typed as `from_analysis` does.
fn doc(title: &str, url: Option<&str>, sections: Vec<Section>) -> Document {
    let source = Source::new(url.map(str::to_owned), url.map(str::to_owned), None, None);
    let mut d = Document::from_error(ErrorInfo::new("x", "x", false), source, String::new());
    d.error = None;
    d.status = Status::Ok;
    d.title = (!title.is_empty()).then(|| title.to_owned());
    d.sections = sections;
    let words = TextVocabulary::of(&d.sections);
    annotate(&mut d, &words);
    d
}

fn agb() -> Section {
    sec(
        "Allgemeine Geschäftsbedingungen",
        &[],
        vec![
            sec(
                "§ 1 Geltungsbereich",
                &[
                    "Diese AGB gelten für alle Verträge zwischen dem Kunden und der Beispiel GmbH, \
                   die über den Online-Shop geschlossen werden.",
                ],
                vec![],
            ),
            sec(
                "§ 2 Vertragsschluss",
                &[
                    "Die Darstellung der Produkte stellt kein bindendes Angebot dar. Der Vertrag \
                   kommt mit unserer Auftragsbestätigung zustande.",
                ],
                vec![],
            ),
            sec(
                "§ 3 Eigentumsvorbehalt",
                &[
                    "Die Ware bleibt bis zur vollständigen Zahlung unser Eigentum. Der Kunde \
                   haftet für Schäden.",
                ],
                vec![],
            ),
        ],
    )
}

#[test]
fn a_german_agb_by_title_heading_and_words() {
    let d = doc("AGB | Beispiel-Shop", None, vec![agb()]);
    let t = d.document_type.expect("typed");
    assert_eq!(t.kind, DocumentType::Terms);
    assert_eq!(t.ota_name.as_deref(), Some("Terms of Service"));
    assert!(t.confidence > 0.5, "{t:?}");
    let sources: Vec<EvidenceSource> = t.evidence.iter().map(|e| e.source).collect();
    assert!(sources.contains(&EvidenceSource::Title));
    assert!(sources.contains(&EvidenceSource::Heading));
    assert!(sources.contains(&EvidenceSource::Vocabulary));
    // Strongest first.
    assert!(t.evidence.windows(2).all(|w| w[0].weight >= w[1].weight));
    // A single document: the sections are not typed one by one.
    assert!(d.sections.iter().all(|s| s.document_type.is_none()));
}

#[test]
fn an_english_privacy_policy_without_a_telling_title() {
    let d = doc(
        "Example Ltd",
        None,
        vec![
            sec(
                "How we handle your information",
                &[
                    "We collect personal data when you create an account, such as your name and \
                   e-mail address. The data controller is Example Ltd.",
                ],
                vec![],
            ),
            sec(
                "Your rights",
                &[
                    "Under the GDPR you may ask for a copy of your personal data and ask us to \
                   delete your personal information.",
                ],
                vec![],
            ),
        ],
    );
    let t = d.document_type.expect("typed");
    assert_eq!(t.kind, DocumentType::Privacy, "{t:?}");
    assert!(
        t.evidence
            .iter()
            .all(|e| e.source == EvidenceSource::Vocabulary)
    );
}

#[test]
fn french_pages() {
    let mentions = doc(
        "Exemple",
        None,
        vec![sec(
            "Mentions légales",
            &[
                "Éditeur du site : Exemple SAS au capital social de 10 000 euros, RCS Paris \
                 123 456 789, SIRET 123 456 789 00012, siège social : 1 rue de la Paix, Paris.",
                "Directeur de la publication : Jean Dupont. Hébergeur : OVH, Roubaix.",
            ],
            vec![],
        )],
    );
    assert_eq!(
        mentions.document_type.map(|t| t.kind),
        Some(DocumentType::Imprint)
    );
    let retractation = doc(
        "Exemple",
        None,
        vec![sec(
            "Votre droit",
            &[
                "Vous disposez d'un délai de rétractation de quatorze jours pour exercer votre \
                 droit de rétractation sans avoir à motiver votre décision.",
                "En cas de rétractation, nous vous rembourserons tous les paiements reçus. Le \
                 remboursement est effectué au plus tard quatorze jours après le retour des \
                 produits.",
            ],
            vec![],
        )],
    );
    assert_eq!(
        retractation.document_type.map(|t| t.kind),
        Some(DocumentType::Withdrawal)
    );
    let cgv = doc(
        "CGV – Exemple",
        None,
        vec![sec(
            "Conditions générales de vente",
            &[
                "Les présentes conditions générales régissent les ventes entre le vendeur et le \
               client. La formation du contrat intervient à la validation de la commande.",
            ],
            vec![],
        )],
    );
    assert_eq!(cgv.document_type.map(|t| t.kind), Some(DocumentType::Terms));
}

#[test]
fn the_address_counts_only_over_http() {
    let body = || {
        vec![sec(
            "",
            &[
                "Wir liefern mit DHL. Die Versandkosten betragen 4,90 Euro, die Lieferzeit \
                 zwei bis drei Werktage.",
                "Sie zahlen per PayPal, Vorkasse oder Kreditkarte.",
            ],
            vec![],
        )]
    };
    let d = doc(
        "Beispiel-Shop",
        Some("https://shop.example/versand-und-zahlung"),
        body(),
    );
    let t = d.document_type.expect("typed");
    assert_eq!(t.kind, DocumentType::ShippingPayment);
    assert!(t.evidence.iter().any(|e| e.source == EvidenceSource::Url));
    let d = doc(
        "Beispiel-Shop",
        Some("file:///corpus/versand-und-zahlung.html"),
        body(),
    );
    let t = d.document_type.expect("typed");
    assert!(t.evidence.iter().all(|e| e.source != EvidenceSource::Url));
}

#[test]
fn a_link_text_the_caller_knows_is_evidence() {
    let d = doc(
        "Beispiel-Shop",
        None,
        vec![sec(
            "",
            &[
                "Diese Seite verwendet Cookies. Notwendige Cookies speichern Ihren Warenkorb; \
               Cookies für Statistik setzen wir nur mit Ihrer Einwilligung.",
            ],
            vec![],
        )],
    );
    let hints = TypeHints {
        url: None,
        link_text: Some("Cookie-Richtlinie"),
    };
    let t = classify_document(&d, &hints).expect("typed");
    assert_eq!(t.kind, DocumentType::Cookies);
    assert!(
        t.evidence
            .iter()
            .any(|e| e.source == EvidenceSource::LinkText && e.value == "Cookie-Richtlinie")
    );
}

#[test]
fn a_page_holding_several_documents_types_each() {
    let widerruf = sec(
        "Widerrufsbelehrung",
        &[],
        vec![
            sec(
                "Widerrufsrecht",
                &[
                    "Sie haben das Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen \
                   Vertrag zu widerrufen. Die Widerrufsfrist beträgt vierzehn Tage ab dem Tag, \
                   an dem Sie die Waren in Besitz genommen haben.",
                ],
                vec![],
            ),
            sec(
                "Folgen des Widerrufs",
                &[
                    "Wenn Sie diesen Vertrag widerrufen, haben wir Ihnen alle Zahlungen \
                   zurückzuzahlen.",
                ],
                vec![],
            ),
        ],
    );
    let formular = sec(
        "Muster-Widerrufsformular",
        &[
            "Wenn Sie den Vertrag widerrufen wollen, dann füllen Sie bitte dieses Formular aus \
             und senden Sie es zurück.",
            "Hiermit widerrufe(n) ich/wir den von mir/uns abgeschlossenen Vertrag über den Kauf \
             der folgenden Waren.",
        ],
        vec![],
    );
    let d = doc(
        "AGB und Kundeninformationen",
        None,
        vec![agb(), widerruf, formular],
    );
    assert_eq!(
        d.document_type.as_ref().map(|t| t.kind),
        Some(DocumentType::Terms)
    );
    let typed: Vec<Option<DocumentType>> = d
        .sections
        .iter()
        .map(|s| s.document_type.as_ref().map(|t| t.kind))
        .collect();
    assert_eq!(
        typed,
        [
            Some(DocumentType::Terms),
            Some(DocumentType::Withdrawal),
            Some(DocumentType::Withdrawal)
        ]
    );
    let json = serde_json::to_value(&d).expect("json");
    assert_eq!(json["document_type"]["kind"], "terms");
    assert_eq!(json["sections"][1]["document_type"]["kind"], "withdrawal");
    assert!(
        json["sections"][0]["subsections"][0]
            .get("document_type")
            .is_none()
    );
}

#[test]
fn labels_name_their_first_document() {
    assert_eq!(
        first_named("AGB & Widerrufsrecht").map(|m| m.kind),
        Some(Terms)
    );
    assert_eq!(
        first_named("Terms of Use and Privacy Policy").map(|m| m.kind),
        Some(Terms)
    );
    assert_eq!(
        first_named("Ubuntu legal terms and policies").map(|m| m.kind),
        Some(Terms)
    );
    assert_eq!(first_named("Legal").map(|m| m.kind), Some(Other));
    assert_eq!(
        title_parts("Shop – AGB | Versandhaus Müller"),
        ["Shop", "AGB", "Versandhaus Müller"]
    );
}

#[test]
fn words_are_counted_per_paragraph_and_capped() {
    let hits = content_hits("Widerrufsfrist Widerrufsfrist Widerrufsfrist Widerrufsfrist\nKunde");
    let withdrawal = hits
        .iter()
        .find(|h| h.kind == Withdrawal)
        .expect("withdrawal");
    assert_eq!(withdrawal.count, 4);
    assert_eq!(withdrawal.weight, LINE_CAP);
    assert_eq!(withdrawal.phrases, ["widerrufsfrist"]);
    assert!(hits.iter().any(|h| h.kind == Terms && h.count == 1));
}

#[test]
fn nothing_to_go_by_gives_no_type() {
    let d = doc(
        "Startseite",
        None,
        vec![sec(
            "",
            &["Willkommen! Neue Sommerkleider sind da."],
            vec![],
        )],
    );
    assert_eq!(d.document_type, None);
    assert!(is_http("HTTPS://x.de/agb") && !is_http("file:///x/agb.html"));
}

#[test]
fn phrase_index_finds_every_phrase_at_word_starts() {
    let index = PhraseIndex::new(["agb", "agb*", "agb", "terms of use", "widerruf*", "recht"]);
    let found = |text: &str| {
        let mut out = Vec::new();
        index.scan_text(text, |i| out.push(i));
        out.sort_unstable();
        out
    };
    // Identical stems are all reported; a stem with `*` continues into its word.
    assert_eq!(found("die agb gelten"), [0, 1, 2]);
    assert_eq!(found("agbs"), [1]);
    // Only at word starts; a whole-word phrase must end its word.
    assert_eq!(found("magb widerrufsrecht recht"), [4, 5]);
    assert_eq!(found("the terms of use apply"), [3]);
    assert_eq!(found("terms of user"), Vec::<usize>::new());
}

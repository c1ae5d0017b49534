//! The jobs of the soak test: generated German and English T&C pages, a few of them bad on
//! purpose, and what each must give.

use std::collections::HashMap;

use tcx::job::Job;

use crate::results::Expect;
use crate::rng::Rng;

/// The texts of one language; `{shop}` in a sentence is replaced by the shop's name.
struct Texts {
    code: &'static str,
    title: &'static str,
    slug: &'static str,
    names: [&'static [&'static str]; 2],
    nav: &'static str,
    cookie: &'static str,
    footer: &'static str,
    list_intro: &'static str,
    list_items: &'static [&'static str],
    /// Section titles with their sentences; the first and last section are always present.
    sections: &'static [(&'static str, &'static [&'static str])],
}

const DE: Texts = Texts {
    code: "de",
    title: "Allgemeine Geschäftsbedingungen",
    slug: "agb",
    names: [
        &["Nord", "Sonnen", "Berg", "Stadt", "Wald", "Linden", "Rhein"],
        &["haus", "markt", "laden", "werk", "kontor", "stube"],
    ],
    nav: r#"<a href="/">Startseite</a> <a href="/produkte">Produkte</a> <a href="/angebote">Angebote</a> <a href="/kontakt">Kontakt</a> <a href="/warenkorb">Warenkorb (0)</a>"#,
    cookie: "Wir verwenden Cookies, um Ihnen ein optimales Einkaufserlebnis zu bieten.",
    footer: r#"<a href="/impressum">Impressum</a> | <a href="/datenschutz">Datenschutz</a> | <a href="/agb">AGB</a> | <a href="/widerruf">Widerrufsbelehrung</a>"#,
    list_intro: "Wir akzeptieren folgende Zahlungsarten:",
    list_items: &[
        "Vorkasse per Überweisung",
        "PayPal",
        "Kreditkarte",
        "Kauf auf Rechnung",
        "Lastschrift",
    ],
    sections: &[
        (
            "Geltungsbereich",
            &[
                "Diese Allgemeinen Geschäftsbedingungen gelten für alle Bestellungen, die Kunden über den Online-Shop von {shop} abschließen.",
                "Abweichende Bedingungen des Kunden erkennen wir nicht an, es sei denn, wir stimmen ihrer Geltung ausdrücklich schriftlich zu.",
                "Verbraucher ist jede natürliche Person, die ein Rechtsgeschäft zu Zwecken abschließt, die überwiegend weder ihrer gewerblichen noch ihrer selbständigen beruflichen Tätigkeit zugerechnet werden können.",
            ],
        ),
        (
            "Vertragsschluss",
            &[
                "Die Darstellung der Produkte im Online-Shop stellt kein rechtlich bindendes Angebot, sondern eine Aufforderung zur Bestellung dar.",
                "Mit dem Absenden der Bestellung gibt der Kunde ein verbindliches Angebot zum Kauf der im Warenkorb enthaltenen Waren ab.",
                "Der Vertrag kommt erst zustande, wenn {shop} die Bestellung durch eine Auftragsbestätigung per E-Mail annimmt.",
            ],
        ),
        (
            "Preise und Versandkosten",
            &[
                "Alle Preise verstehen sich in Euro inklusive der gesetzlichen Mehrwertsteuer.",
                "Zusätzlich zu den angegebenen Preisen berechnen wir für die Lieferung Versandkosten, die auf der Seite Versandinformationen genannt sind.",
                "Ab einem Bestellwert von 50 Euro liefern wir innerhalb Deutschlands versandkostenfrei.",
            ],
        ),
        (
            "Lieferung",
            &[
                "Die Lieferung erfolgt innerhalb Deutschlands in der Regel innerhalb von drei bis fünf Werktagen nach Zahlungseingang.",
                "Sollte ein bestellter Artikel nicht vorrätig sein, informieren wir den Kunden unverzüglich per E-Mail.",
                "Teillieferungen sind zulässig, soweit sie dem Kunden zumutbar sind.",
            ],
        ),
        (
            "Zahlung",
            &[
                "Bei Zahlung auf Rechnung ist der Kaufpreis innerhalb von vierzehn Tagen ab Erhalt der Ware fällig.",
                "Gerät der Kunde in Zahlungsverzug, sind wir berechtigt, Verzugszinsen in gesetzlicher Höhe zu verlangen.",
            ],
        ),
        (
            "Eigentumsvorbehalt",
            &[
                "Die gelieferte Ware bleibt bis zur vollständigen Bezahlung des Kaufpreises Eigentum von {shop}.",
                "Vor dem Übergang des Eigentums ist eine Verpfändung oder Sicherungsübereignung der Ware nicht gestattet.",
            ],
        ),
        (
            "Widerrufsrecht",
            &[
                "Verbraucher haben das Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen.",
                "Die Widerrufsfrist beträgt vierzehn Tage ab dem Tag, an dem der Kunde die Waren in Besitz genommen hat.",
                "Die unmittelbaren Kosten der Rücksendung trägt der Kunde.",
            ],
        ),
        (
            "Gewährleistung",
            &[
                "Es gelten die gesetzlichen Mängelhaftungsrechte.",
                "Offensichtliche Transportschäden sollte der Kunde möglichst sofort beim Zusteller reklamieren und uns darüber informieren.",
                "Die Verjährungsfrist für Mängelansprüche beträgt bei neuen Waren zwei Jahre ab Ablieferung.",
            ],
        ),
        (
            "Haftung",
            &[
                "Wir haften unbeschränkt für Schäden aus der Verletzung des Lebens, des Körpers oder der Gesundheit.",
                "Bei leicht fahrlässiger Verletzung wesentlicher Vertragspflichten ist die Haftung auf den vorhersehbaren, vertragstypischen Schaden begrenzt.",
            ],
        ),
        (
            "Schlussbestimmungen",
            &[
                "Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts.",
                "Sollte eine Bestimmung dieser Bedingungen unwirksam sein, bleibt die Wirksamkeit der übrigen Bestimmungen unberührt.",
            ],
        ),
    ],
};

const EN: Texts = Texts {
    code: "en",
    title: "Terms and Conditions",
    slug: "terms",
    names: [
        &[
            "Green", "Maple", "River", "Bright", "Oak", "Harbour", "Stone",
        ],
        &[
            " Goods",
            " Supply",
            " Store",
            " Outfitters",
            " Trading",
            " Market",
        ],
    ],
    nav: r#"<a href="/">Home</a> <a href="/shop">Shop</a> <a href="/sale">Sale</a> <a href="/contact">Contact</a> <a href="/cart">Basket (0)</a>"#,
    cookie: "We use cookies to give you the best shopping experience on our website.",
    footer: r#"<a href="/legal">Legal notice</a> | <a href="/privacy">Privacy policy</a> | <a href="/terms">Terms</a> | <a href="/returns">Returns</a>"#,
    list_intro: "We accept the following payment methods:",
    list_items: &[
        "Bank transfer in advance",
        "PayPal",
        "Credit card",
        "Invoice",
        "Direct debit",
    ],
    sections: &[
        (
            "Scope",
            &[
                "These terms and conditions apply to all orders placed by customers through the online shop of {shop}.",
                "Conflicting terms of the customer are not accepted unless we expressly agree to them in writing.",
                "A consumer is any natural person who enters into a contract for purposes outside their trade, business or profession.",
            ],
        ),
        (
            "Conclusion of the contract",
            &[
                "The presentation of products in the online shop is not a legally binding offer but an invitation to place an order.",
                "By submitting the order, the customer makes a binding offer to buy the goods in the shopping basket.",
                "The contract is concluded only when {shop} accepts the order by sending an order confirmation by email.",
            ],
        ),
        (
            "Prices and shipping costs",
            &[
                "All prices are in euros and include the statutory value added tax.",
                "In addition to the stated prices, shipping costs apply as listed on our shipping information page.",
                "Orders above a value of 50 euros are delivered free of charge within the country.",
            ],
        ),
        (
            "Delivery",
            &[
                "Delivery usually takes three to five working days after receipt of payment.",
                "If an ordered item is out of stock, we will inform the customer by email without delay.",
                "Partial deliveries are permitted as far as they are reasonable for the customer.",
            ],
        ),
        (
            "Payment",
            &[
                "When paying by invoice, the purchase price is due within fourteen days of receipt of the goods.",
                "If the customer is in default of payment, we are entitled to charge default interest at the statutory rate.",
            ],
        ),
        (
            "Retention of title",
            &[
                "The goods remain the property of {shop} until the purchase price has been paid in full.",
                "Before ownership passes, the goods may not be pledged or transferred by way of security.",
            ],
        ),
        (
            "Right of withdrawal",
            &[
                "Consumers have the right to withdraw from this contract within fourteen days without giving any reason.",
                "The withdrawal period is fourteen days from the day on which the customer took possession of the goods.",
                "The customer bears the direct cost of returning the goods.",
            ],
        ),
        (
            "Warranty",
            &[
                "The statutory rights in respect of defects apply.",
                "The customer should report obvious transport damage to the carrier immediately and inform us about it.",
                "The limitation period for claims for defects in new goods is two years from delivery.",
            ],
        ),
        (
            "Liability",
            &[
                "We are liable without limitation for damage resulting from injury to life, body or health.",
                "For slightly negligent breaches of essential contractual obligations, liability is limited to the foreseeable damage typical for the contract.",
            ],
        ),
        (
            "Final provisions",
            &[
                "The law of the country of our registered office applies, excluding the UN Convention on Contracts for the International Sale of Goods.",
                "Should any provision of these terms be invalid, the validity of the remaining provisions shall not be affected.",
            ],
        ),
    ],
};

/// A T&C page and its (never fetched) URL, generated from `rng`: page chrome around numbered
/// sections, a random subset of them in order, with a list of payment methods now and then.
fn page(rng: &mut Rng) -> (String, String) {
    let t = if rng.chance(50) { &DE } else { &EN };
    let shop = format!(
        "{}{}",
        t.names[0][rng.below(t.names[0].len())],
        t.names[1][rng.below(t.names[1].len())]
    );
    let slug: String = shop
        .to_lowercase()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let mut body = String::new();
    let mut n = 0;
    for (i, (title, sentences)) in t.sections.iter().enumerate() {
        let edge = i == 0 || i + 1 == t.sections.len();
        if !edge && !rng.chance(70) {
            continue;
        }
        n += 1;
        let heading = if t.code == "de" {
            format!("§ {n} {title}")
        } else {
            format!("{n}. {title}")
        };
        body.push_str(&format!("<h2>{heading}</h2>\n<p>"));
        for s in *sentences {
            body.push_str(&s.replace("{shop}", &shop));
            body.push(' ');
        }
        body.push_str("</p>\n");
        if title.starts_with("Zahlung") || title.starts_with("Payment") {
            let items: Vec<String> = t
                .list_items
                .iter()
                .filter(|_| rng.chance(75))
                .map(|item| format!("<li>{item}</li>"))
                .collect();
            body.push_str(&format!(
                "<p>{}</p><ul>{}</ul>\n",
                t.list_intro,
                items.concat()
            ));
        }
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title} – \
         {shop}</title></head>\n<body><header><div class=\"logo\">{shop}</div><nav>{nav}</nav>\
         </header>\n<div class=\"cookie-banner\"><p>{cookie}</p><button>OK</button></div>\n\
         <main><article class=\"content\"><h1>{title}</h1>\n{body}</article></main>\n<footer>\
         <p>© 2025 {shop}</p><p>{footer}</p></footer></body></html>\n",
        lang = t.code,
        title = t.title,
        nav = t.nav,
        cookie = t.cookie,
        footer = t.footer,
    );
    (html, format!("https://{slug}.example/{}", t.slug))
}

/// The jobs of a run with what each must give: every 33rd job is bad, in turn an empty page,
/// a PDF, and a job with an invalid language hint (dead-lettered).
pub fn make_jobs(run_id: &str, n: usize) -> (Vec<Job>, HashMap<String, Expect>) {
    let mut rng = Rng(0x7463_7873_6f61_6b21);
    let mut jobs = Vec::with_capacity(n);
    let mut expected = HashMap::with_capacity(n);
    for i in 0..n {
        let (html, url) = page(&mut rng);
        let id = format!("{run_id}-{i:06}");
        let mut job = Job::new(id.clone(), url);
        let expect = match (i % 33 == 7).then_some((i / 33) % 3) {
            Some(0) => {
                job.html = Some(if i % 2 == 0 {
                    String::new()
                } else {
                    " \n\t ".into()
                });
                Expect::Error("empty")
            }
            Some(1) => {
                job.html = Some(
                    "%PDF-1.7\n%\u{e2}\u{e3}\u{cf}\u{d3}\n1 0 obj\n<< /Type /Catalog >>\n".into(),
                );
                Expect::Error("not_html")
            }
            Some(_) => {
                job.html = Some(html);
                job.lang_hint = Some("fr".into());
                Expect::DeadLetter
            }
            None => {
                job.html = Some(html);
                Expect::Ok
            }
        };
        expected.insert(id, expect);
        jobs.push(job);
    }
    (jobs, expected)
}

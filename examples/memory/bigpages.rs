//! Large legal pages for the memory bench: German or English T&C pages of just under a byte
//! limit (the worker's `fetch.max_body_bytes`), made of thousands of numbered `<h2>` sections
//! with `(1)`, `(2)` … clauses in `<p>`, some `<h3>` subsections, lists and tables. The
//! sentences are put together from parts (who, what, on which condition, with numbers), so the
//! text is varied rather than one block repeated: the analysis sees a real page's shape.

use crate::rng::Rng;

/// The parts of one language's sentences and page chrome.
struct Lang {
    code: &'static str,
    title: &'static str,
    slug: &'static str,
    /// Section numbering: `§ 12` or `12.`
    paragraph_sign: bool,
    /// Suffixes of the shop name.
    company: &'static [&'static str],
    nav: &'static str,
    cookie: &'static str,
    footer: &'static str,
    section_titles: &'static [&'static str],
    /// Qualifiers appended to a section title now and then.
    title_suffixes: &'static [&'static str],
    actors: &'static [&'static str],
    /// What an actor does; `{n}` days, `{eur}` euros, `{s}` another section.
    predicates: &'static [&'static str],
    conditions: &'static [&'static str],
    /// Sentences that stand alone.
    standalone: &'static [&'static str],
    list_intros: &'static [&'static str],
    list_items: &'static [&'static str],
    /// Table captions with their column heads.
    tables: &'static [(&'static str, [&'static str; 4])],
    /// Cell values of the first column, and of the other columns (with numbers filled in).
    table_keys: &'static [&'static str],
    table_values: &'static [&'static str],
}

const DE: Lang = Lang {
    code: "de",
    title: "Allgemeine Geschäftsbedingungen",
    slug: "agb",
    paragraph_sign: true,
    company: &[
        " GmbH",
        " AG",
        " GmbH & Co. KG",
        " e.K.",
        " UG (haftungsbeschränkt)",
    ],
    nav: r#"<a href="/">Startseite</a> <a href="/sortiment">Sortiment</a> <a href="/marken">Marken</a> <a href="/hilfe">Hilfe</a> <a href="/konto">Mein Konto</a> <a href="/warenkorb">Warenkorb</a>"#,
    cookie: "Diese Website verwendet Cookies. Mit der weiteren Nutzung stimmen Sie der Verwendung zu.",
    footer: r#"<a href="/impressum">Impressum</a> | <a href="/datenschutz">Datenschutz</a> | <a href="/agb">AGB</a> | <a href="/widerruf">Widerrufsbelehrung</a> | <a href="/versand">Versand und Zahlung</a>"#,
    section_titles: &[
        "Geltungsbereich",
        "Begriffsbestimmungen",
        "Vertragspartner",
        "Vertragsschluss",
        "Registrierung und Kundenkonto",
        "Preise und Zahlungsbedingungen",
        "Versand und Lieferung",
        "Lieferzeiten",
        "Gefahrübergang",
        "Eigentumsvorbehalt",
        "Widerrufsrecht",
        "Ausschluss des Widerrufsrechts",
        "Folgen des Widerrufs",
        "Mängelhaftung",
        "Garantien",
        "Haftungsbeschränkung",
        "Gutscheine",
        "Aktionscodes",
        "Kundenbewertungen",
        "Nutzungsrechte an Inhalten",
        "Pflichten des Kunden",
        "Datenschutz",
        "Aufrechnung und Zurückbehaltung",
        "Streitbeilegung",
        "Anwendbares Recht",
        "Gerichtsstand",
        "Vertragssprache",
        "Speicherung des Vertragstextes",
        "Kundendienst",
        "Abonnements und Laufzeit",
        "Kündigung",
        "Änderungen dieser Bedingungen",
        "Höhere Gewalt",
        "Rücksendungen",
        "Transportschäden",
        "Marktplatz-Verkäufer",
        "Geschenkkarten",
        "Ratenzahlung",
        "Mindestbestellwert",
        "Montage und Aufbau",
        "Sonderanfertigungen",
    ],
    title_suffixes: &[
        " für Verbraucher",
        " für Unternehmer",
        " im Marktplatz",
        " bei Vorbestellungen",
        " für Geschäftskunden",
        " im Ausland",
    ],
    actors: &[
        "Der Kunde",
        "Der Verkäufer",
        "Die {shop}",
        "Der Verbraucher",
        "Der Unternehmer",
        "Jede Vertragspartei",
        "Der Käufer",
        "Der Anbieter",
        "Der Inhaber des Kundenkontos",
        "Ein gewerblicher Abnehmer",
        "Der beauftragte Versanddienstleister",
    ],
    predicates: &[
        "ist berechtigt, die Bestellung innerhalb von {n} Werktagen schriftlich zu widerrufen",
        "hat die gelieferte Ware unverzüglich auf offensichtliche Mängel zu untersuchen",
        "trägt die Kosten der Rücksendung, sofern der Warenwert {eur} Euro nicht übersteigt",
        "haftet für Schäden nur bei Vorsatz oder grober Fahrlässigkeit",
        "kann die Zahlung per Kreditkarte, PayPal, Lastschrift oder auf Rechnung leisten",
        "verpflichtet sich, seine Zugangsdaten geheim zu halten und vor Dritten zu schützen",
        "teilt Änderungen seiner Anschrift oder Bankverbindung unverzüglich mit",
        "darf Teillieferungen vornehmen, soweit dies dem Kunden zumutbar ist",
        "erhält innerhalb von {n} Stunden eine Bestätigung des Eingangs per E-Mail",
        "kann Ansprüche aus diesem Vertrag nur mit schriftlicher Zustimmung abtreten",
        "ist zur Aufrechnung nur mit rechtskräftig festgestellten Forderungen berechtigt",
        "bewahrt den Vertragstext für die Dauer von {n} Monaten auf",
        "stellt sicher, dass die angegebene Lieferadresse vollständig und richtig ist",
        "ersetzt Aufwendungen in Höhe von höchstens {eur} Euro je Lieferung",
        "informiert über Lieferhindernisse spätestens {n} Tage vor dem vereinbarten Termin",
        "kann das Kundenkonto jederzeit ohne Angabe von Gründen löschen lassen",
        "gewährt auf ausgewählte Artikel eine Haltbarkeitsgarantie von {n} Monaten",
        "erstattet Zahlungen spätestens binnen {n} Tagen ab Zugang des Widerrufs",
        "ist nicht verpflichtet, Bestellungen aus dem Ausland anzunehmen",
        "behält sich das Eigentum an der Ware bis zur vollständigen Zahlung vor",
        "darf Gutscheine nur bis zu einem Betrag von {eur} Euro je Bestellung einlösen",
        "verarbeitet personenbezogene Daten ausschließlich zur Vertragsabwicklung",
        "schuldet Verzugszinsen in Höhe von {pct} Prozentpunkten über dem Basiszinssatz",
    ],
    conditions: &[
        "sofern nichts anderes vereinbart ist",
        "soweit gesetzlich zulässig",
        "es sei denn, die Parteien haben eine abweichende Regelung getroffen",
        "gemäß § {bgb} Abs. {abs} BGB",
        "innerhalb einer Frist von {n} Tagen nach Zugang der Ware",
        "nach Maßgabe der folgenden Bestimmungen",
        "im Rahmen der gesetzlichen Vorschriften",
        "vorbehaltlich der Regelungen in § {s} dieser Bedingungen",
        "unbeschadet weitergehender gesetzlicher Ansprüche",
        "bei Bestellungen mit einem Warenwert über {eur} Euro",
        "wenn die Lieferung an eine Packstation erfolgt",
        "solange der Vorrat reicht",
        "nach vorheriger Ankündigung in Textform",
    ],
    standalone: &[
        "Im Übrigen gelten die gesetzlichen Bestimmungen.",
        "Die Frist ist gewahrt, wenn die Erklärung vor ihrem Ablauf abgesendet wird.",
        "Maßgeblich ist der Zeitpunkt des Zahlungseingangs auf unserem Konto.",
        "Abweichende Vereinbarungen bedürfen der Schriftform; dies gilt auch für die Aufhebung dieses Formerfordernisses.",
        "Die Regelungen des § {s} bleiben unberührt.",
        "Angebote sind freibleibend und gelten nur für den Zeitraum von {n} Tagen.",
        "Bei Rückfragen erreichen Sie unseren Kundendienst werktags von {h} bis {h2} Uhr.",
        "Die Europäische Kommission stellt eine Plattform zur Online-Streitbeilegung bereit.",
        "Eine Barauszahlung des Guthabens ist ausgeschlossen.",
    ],
    list_intros: &[
        "Folgende Zahlungsarten stehen zur Verfügung:",
        "Das Widerrufsrecht besteht nicht bei Verträgen",
        "Der Kunde ist insbesondere verpflichtet,",
        "Zu den wesentlichen Vertragspflichten gehören:",
        "Wir liefern in folgende Länder:",
    ],
    list_items: &[
        "Vorkasse per Überweisung",
        "PayPal",
        "Kreditkarte (Visa, Mastercard)",
        "Kauf auf Rechnung",
        "SEPA-Lastschrift",
        "Ratenkauf ab {eur} Euro",
        "zur Lieferung von Waren, die nach Kundenspezifikation angefertigt werden",
        "zur Lieferung versiegelter Waren, deren Versiegelung nach der Lieferung entfernt wurde",
        "die Ware bei Anlieferung auf Vollständigkeit zu prüfen",
        "Mängel innerhalb von {n} Tagen anzuzeigen",
        "die rechtzeitige Lieferung",
        "die Freiheit der Ware von Rechtsmängeln",
        "Deutschland",
        "Österreich",
        "Schweiz",
        "Niederlande",
        "Belgien",
        "Luxemburg",
    ],
    tables: &[
        (
            "Versandkosten",
            ["Land", "Versandart", "Kosten", "Lieferzeit"],
        ),
        (
            "Speicherfristen",
            [
                "Datenkategorie",
                "Zweck",
                "Speicherdauer",
                "Rechtsgrundlage",
            ],
        ),
        (
            "Gebühren",
            ["Leistung", "Abrechnung", "Betrag", "Fälligkeit"],
        ),
    ],
    table_keys: &[
        "Deutschland",
        "Österreich",
        "Schweiz",
        "Bestelldaten",
        "Rechnungsdaten",
        "Kundenkonto",
        "Expresszuschlag",
        "Rücksendung",
        "Mahnung",
        "Newsletter",
        "Bonitätsprüfung",
    ],
    table_values: &[
        "{eur},00 Euro",
        "{n} Werktage",
        "{n} Monate",
        "Standard",
        "Express",
        "Spedition",
        "Art. 6 Abs. 1 lit. b DSGVO",
        "§ 147 AO",
        "einmalig",
        "monatlich",
        "sofort",
        "Vertragserfüllung",
        "gesetzliche Aufbewahrungspflicht",
    ],
};

const EN: Lang = Lang {
    code: "en",
    title: "Terms and Conditions",
    slug: "terms",
    paragraph_sign: false,
    company: &[" Ltd", " Limited", " LLC", " Inc.", " plc"],
    nav: r#"<a href="/">Home</a> <a href="/shop">Shop</a> <a href="/brands">Brands</a> <a href="/help">Help</a> <a href="/account">My account</a> <a href="/basket">Basket</a>"#,
    cookie: "This website uses cookies. By continuing to browse the site you agree to our use of cookies.",
    footer: r#"<a href="/legal">Legal notice</a> | <a href="/privacy">Privacy</a> | <a href="/terms">Terms</a> | <a href="/returns">Returns</a> | <a href="/delivery">Delivery and payment</a>"#,
    section_titles: &[
        "Scope",
        "Definitions",
        "Contracting parties",
        "Formation of the contract",
        "Registration and customer account",
        "Prices and payment terms",
        "Shipping and delivery",
        "Delivery times",
        "Passing of risk",
        "Retention of title",
        "Right to cancel",
        "Exceptions to the right to cancel",
        "Effects of cancellation",
        "Liability for defects",
        "Guarantees",
        "Limitation of liability",
        "Vouchers",
        "Promotional codes",
        "Customer reviews",
        "Licence to content",
        "Obligations of the customer",
        "Data protection",
        "Set-off and retention",
        "Dispute resolution",
        "Governing law",
        "Jurisdiction",
        "Language of the contract",
        "Storage of the contract text",
        "Customer service",
        "Subscriptions and term",
        "Termination",
        "Changes to these terms",
        "Force majeure",
        "Returns",
        "Damage in transit",
        "Marketplace sellers",
        "Gift cards",
        "Instalments",
        "Minimum order value",
        "Assembly and installation",
        "Custom-made goods",
    ],
    title_suffixes: &[
        " for consumers",
        " for business customers",
        " on the marketplace",
        " for pre-orders",
        " for trade accounts",
        " outside the United Kingdom",
    ],
    actors: &[
        "The customer",
        "The seller",
        "{shop}",
        "The consumer",
        "The business customer",
        "Each party",
        "The buyer",
        "The provider",
        "The holder of the customer account",
        "A trade customer",
        "The carrier appointed by us",
    ],
    predicates: &[
        "may cancel the order in writing within {n} working days",
        "shall inspect the goods for obvious defects without undue delay",
        "bears the cost of returning the goods where their value does not exceed {eur} pounds",
        "is liable for damage only in cases of intent or gross negligence",
        "may pay by credit card, PayPal, direct debit or on account",
        "undertakes to keep their login details secret and to protect them from third parties",
        "shall notify any change of address or bank details without delay",
        "may make partial deliveries where this is reasonable for the customer",
        "receives an acknowledgement of receipt by email within {n} hours",
        "may assign claims under this contract only with our written consent",
        "may set off only claims that have been finally established by a court",
        "keeps the text of the contract for a period of {n} months",
        "shall ensure that the delivery address given is complete and correct",
        "reimburses expenses of no more than {eur} pounds per delivery",
        "gives notice of any obstacle to delivery at least {n} days before the agreed date",
        "may have the customer account deleted at any time without giving reasons",
        "grants a durability guarantee of {n} months on selected items",
        "refunds payments no later than {n} days after receiving the notice of cancellation",
        "is not obliged to accept orders from outside the country",
        "retains title to the goods until payment has been made in full",
        "may redeem vouchers only up to an amount of {eur} pounds per order",
        "processes personal data solely for the performance of the contract",
        "owes interest on late payment at {pct} percentage points above the base rate",
    ],
    conditions: &[
        "unless otherwise agreed",
        "to the extent permitted by law",
        "unless the parties have agreed otherwise",
        "in accordance with section {bgb}({abs})",
        "within {n} days of receiving the goods",
        "subject to the following provisions",
        "within the limits of the statutory provisions",
        "subject to clause {s} of these terms",
        "without prejudice to any further statutory rights",
        "for orders with a value of more than {eur} pounds",
        "where delivery is made to a parcel locker",
        "while stocks last",
        "after prior notice in text form",
    ],
    standalone: &[
        "In all other respects the statutory provisions apply.",
        "The deadline is met if the notice is sent before it expires.",
        "The time at which payment is received in our account is decisive.",
        "Any variation of these terms must be agreed in writing; this also applies to any waiver of this requirement.",
        "Clause {s} remains unaffected.",
        "Offers are subject to change and are valid for {n} days only.",
        "Our customer service can be reached on working days from {h} am to {h2} pm.",
        "The European Commission provides a platform for online dispute resolution.",
        "The balance cannot be paid out in cash.",
    ],
    list_intros: &[
        "The following payment methods are available:",
        "The right to cancel does not apply to contracts",
        "In particular, the customer shall",
        "The essential obligations of the contract include:",
        "We deliver to the following countries:",
    ],
    list_items: &[
        "Bank transfer in advance",
        "PayPal",
        "Credit card (Visa, Mastercard)",
        "Invoice",
        "Direct debit",
        "Instalments from {eur} pounds",
        "for the supply of goods made to the customer's specifications",
        "for the supply of sealed goods which were unsealed after delivery",
        "check the goods for completeness on delivery",
        "report defects within {n} days",
        "timely delivery",
        "freedom of the goods from defects in title",
        "United Kingdom",
        "Ireland",
        "France",
        "Netherlands",
        "Belgium",
        "Luxembourg",
    ],
    tables: &[
        (
            "Shipping costs",
            ["Country", "Service", "Cost", "Delivery time"],
        ),
        (
            "Retention periods",
            ["Category of data", "Purpose", "Retention", "Legal basis"],
        ),
        ("Fees", ["Service", "Billing", "Amount", "Due"]),
    ],
    table_keys: &[
        "United Kingdom",
        "Ireland",
        "France",
        "Order data",
        "Invoice data",
        "Customer account",
        "Express surcharge",
        "Return",
        "Reminder",
        "Newsletter",
        "Credit check",
    ],
    table_values: &[
        "{eur}.00 pounds",
        "{n} working days",
        "{n} months",
        "Standard",
        "Express",
        "Freight",
        "Art. 6(1)(b) UK GDPR",
        "statutory retention",
        "once",
        "monthly",
        "immediately",
        "performance of the contract",
        "legal obligation",
    ],
};

/// One page being written: its language, shop, random state and section count.
struct Writer<'a> {
    lang: &'a Lang,
    shop: String,
    rng: Rng,
    sections: usize,
}

impl Writer<'_> {
    fn pick(&mut self, items: &[&'static str]) -> &'static str {
        items[self.rng.below(items.len())]
    }

    /// `text` with its placeholders filled with random figures.
    fn fill(&mut self, text: &str) -> String {
        let mut out = text.replace("{shop}", &self.shop);
        let figures: [(&str, usize, usize); 8] = [
            ("{n}", 2, 90),
            ("{eur}", 5, 900),
            ("{pct}", 2, 9),
            ("{bgb}", 241, 853),
            ("{abs}", 1, 5),
            ("{s}", 1, self.sections.max(1) + 1),
            ("{h2}", 16, 20),
            ("{h}", 7, 10),
        ];
        for (slot, low, high) in figures {
            while let Some(at) = out.find(slot) {
                let value = low + self.rng.below(high - low);
                out.replace_range(at..at + slot.len(), &value.to_string());
            }
        }
        out
    }

    /// One sentence: who does what (on which condition), or a sentence standing alone.
    fn sentence(&mut self) -> String {
        let l = self.lang;
        if self.rng.chance(15) {
            let s = self.pick(l.standalone);
            return self.fill(s);
        }
        let (actor, predicate) = (self.pick(l.actors), self.pick(l.predicates));
        let mut s = format!("{actor} {predicate}");
        if self.rng.chance(60) {
            s.push_str(", ");
            s.push_str(self.pick(l.conditions));
        }
        s.push('.');
        self.fill(&s)
    }

    /// A list introduced by a sentence: `<p>intro</p><ul>…</ul>` (or `<ol>`).
    fn list(&mut self, out: &mut String) {
        let intro = self.pick(self.lang.list_intros);
        let tag = if self.rng.chance(30) { "ol" } else { "ul" };
        out.push_str(&format!("<p>{intro}</p>\n<{tag}>"));
        for _ in 0..3 + self.rng.below(6) {
            let item = self.pick(self.lang.list_items);
            let item = self.fill(item);
            out.push_str(&format!("<li>{item}</li>"));
        }
        out.push_str(&format!("</{tag}>\n"));
    }

    /// A table with a caption, a head row and 4 to 12 rows.
    fn table(&mut self, out: &mut String) {
        let (caption, heads) = self.lang.tables[self.rng.below(self.lang.tables.len())];
        out.push_str(&format!(
            "<table class=\"legal-table\"><caption>{caption}</caption><thead><tr>"
        ));
        for h in heads {
            out.push_str(&format!("<th>{h}</th>"));
        }
        out.push_str("</tr></thead><tbody>");
        for _ in 0..4 + self.rng.below(9) {
            let key = self.pick(self.lang.table_keys);
            out.push_str(&format!("<tr><td>{key}</td>"));
            for _ in 1..heads.len() {
                let value = self.pick(self.lang.table_values);
                let value = self.fill(value);
                out.push_str(&format!("<td>{value}</td>"));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>\n");
    }

    /// Numbered clauses `(1) …` of 1 to 5 sentences each.
    fn clauses(&mut self, out: &mut String, count: usize) {
        for k in 1..=count {
            out.push_str(&format!("<p>({k}) "));
            for i in 0..1 + self.rng.below(5) {
                if i > 0 {
                    out.push(' ');
                }
                let s = self.sentence();
                out.push_str(&s);
            }
            out.push_str("</p>\n");
        }
    }

    /// The next section: `<h2>` with clauses, sometimes `<h3>` subsections, a list, a table.
    fn section(&mut self) -> String {
        self.sections += 1;
        let n = self.sections;
        let l = self.lang;
        let mut title = self.pick(l.section_titles).to_owned();
        if self.rng.chance(25) {
            title.push_str(self.pick(l.title_suffixes));
        }
        let number = if l.paragraph_sign {
            format!("§ {n}")
        } else {
            format!("{n}.")
        };
        let mut out = format!("<h2 id=\"s{n}\">{number} {title}</h2>\n");
        if self.rng.chance(15) {
            for m in 1..=2 + self.rng.below(3) {
                let sub = self.pick(l.section_titles);
                out.push_str(&format!("<h3>{n}.{m} {sub}</h3>\n"));
                let count = 1 + self.rng.below(3);
                self.clauses(&mut out, count);
            }
        } else {
            let count = 1 + self.rng.below(6);
            self.clauses(&mut out, count);
        }
        if self.rng.chance(20) {
            self.list(&mut out);
        }
        if self.rng.chance(8) {
            self.table(&mut out);
        }
        out
    }
}

/// A T&C page of at most `max_bytes` bytes (and within a section's size of it) and its (never
/// fetched) URL; page `index` is German when even, English when odd, each page with its own
/// shop and text.
pub fn big_page(index: u64, max_bytes: usize) -> (String, String) {
    let lang = if index.is_multiple_of(2) { &DE } else { &EN };
    let mut rng = Rng(0x6d65_6d6f_7279_0000 ^ index.wrapping_mul(0x9e37_79b9));
    let stems = [
        "Nordlicht",
        "Sonnenberg",
        "Lindenhof",
        "Rheinufer",
        "Harbour",
        "Maple",
    ];
    let stem = stems[rng.below(stems.len())];
    let company = lang.company[rng.below(lang.company.len())];
    let shop = format!("{stem} Handel {index}{company}");
    let slug = format!("{}-{index}", stem.to_lowercase());
    let head = format!(
        "<!DOCTYPE html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} | {shop}</title><link rel=\"stylesheet\" href=\"/assets/site.css\">\
         </head>\n<body><header><div class=\"logo\"><a href=\"/\">{shop}</a></div><nav>{nav}</nav>\
         </header>\n<div class=\"cookie-banner\"><p>{cookie}</p><button>OK</button></div>\n\
         <main><article class=\"legal\"><h1>{title}</h1>\n",
        code = lang.code,
        title = lang.title,
        nav = lang.nav,
        cookie = lang.cookie,
    );
    let tail = format!(
        "</article></main>\n<footer><p>© 2025 {shop}</p><p>{footer}</p></footer></body></html>\n",
        footer = lang.footer
    );
    let mut writer = Writer {
        lang,
        shop,
        rng,
        sections: 0,
    };
    let mut html = head;
    loop {
        let section = writer.section();
        if html.len() + section.len() + tail.len() > max_bytes {
            break;
        }
        html.push_str(&section);
    }
    html.push_str(&tail);
    (html, format!("https://{slug}.example/{}", lang.slug))
}

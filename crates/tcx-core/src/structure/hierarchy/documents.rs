//! Titles that name a whole document (AGB, Widerrufsbelehrung, Privacy Policy …).

use super::*;

pub(super) static DOCUMENT_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:allgemeine\s+geschäftsbedingungen|allgemeine\s+geschäfts-\s*und\s+lieferbedingungen|agb|kundeninformation(?:en)?|verbraucherinformation(?:en)?|widerrufsbelehrung(?:en)?|muster-?\s*widerrufsformular|widerrufsformular|datenschutzerklärung|datenschutzhinweise|datenschutzbestimmungen|datenschutzrichtlinie|datenschutz|impressum|(?:general\s+)?terms\s+(?:and|&)\s+conditions|terms\s+of\s+(?:service|use)|privacy\s+(?:policy|notice)|cancellation\s+policy|withdrawal\s+policy|(?:model\s+)?withdrawal\s+form|conditions\s+générales(?:\s+de\s+vente|\s+d['’]utilisation)?|cgv|cgu|mentions\s+légales|politique\s+de\s+confidentialité|politique\s+de\s+protection\s+des\s+données(?:\s+personnelles)?|politique\s+(?:relative\s+aux\s+|de\s+gestion\s+des\s+|d['’]utilisation\s+des\s+)?cookies|(?:modèle\s+de\s+)?formulaire\s+(?:type\s+)?de\s+rétractation)(?:\s|$|[:.,(])",
    )
    .expect("valid regex")
});

/// The kind of document a title names (the matched name, folded), if it names one.
pub(super) fn document_kind(b: &Block) -> Option<String> {
    if !is_document_title(b) {
        return None;
    }
    let text = match &b.enumeration {
        Some(e) => e.rest(&b.text),
        None => b.text.as_str(),
    };
    let m = DOCUMENT_TITLE.find(text.trim())?;
    let kind = fold(m.as_str()).replace(['-', ' ', '\'', '’'], "");
    // The general terms under their several names are one kind of document, the privacy
    // policy under its several names another ("Datenschutz" in a Datenschutzerklärung is a
    // section of it); the French terms of use are the English ones.
    Some(if kind == "cgu" || kind.contains("utilisation") {
        "termsofuse".to_owned()
    } else if kind.starts_with("datenschutz")
        || kind.starts_with("privacy")
        || kind.contains("confidentialité")
        || kind.contains("protectiondesdonnées")
    {
        "privacy".to_owned()
    } else if matches!(kind.as_str(), "agb" | "cgv")
        || kind.contains("geschäftsbedingungen")
        || kind.contains("conditions")
    {
        "agb".to_owned()
    } else {
        kind
    })
}

/// Whether a title names a whole legal document (AGB, Widerrufsbelehrung, Privacy Policy, …).
pub fn names_a_document(title: &str) -> bool {
    DOCUMENT_TITLE.is_match(title.trim())
}

/// Whether a title names two or more documents joined by "&", "und", "and", "et" or "+"
/// ("Widerrufsbelehrung & Widerrufsformular", "AGB und Kundeninformationen"): each part names
/// one. ("Terms and Conditions" is one name: neither part names a document alone.)
pub(super) fn names_several_documents(title: &str) -> bool {
    static JOINT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r" (?:&|und|and|et|\+) ").expect("valid regex"));
    let parts: Vec<&str> = JOINT.split(title.trim()).collect();
    parts.len() >= 2 && parts.into_iter().all(names_a_document)
}

/// Whether a block is the title of a whole document (AGB, Widerrufsbelehrung, …).
pub(super) fn is_document_title(b: &Block) -> bool {
    // A line of links is a menu or a table of contents ("AGB | Widerrufsbelehrung |
    // Datenschutzerklärung" jumping to the documents below), not a title; a heading element
    // whose text is a link still titles.
    let menu = b.link_only || (b.kind == BlockKind::Paragraph && b.link_share >= 0.5);
    if b.words > 8 || menu || matches!(b.kind, BlockKind::TableRow | BlockKind::ListItem) {
        return false;
    }
    let text = match &b.enumeration {
        // A numbered section title ("8. Datenschutz", "3. Privacy Policy") is a clause of
        // the document, not a document of its own; Roman numerals and letters do number
        // documents ("II. Kundeninformationen").
        Some(e) if e.kind == NumberKind::Arabic => return false,
        Some(e) => e.rest(&b.text),
        None => b.text.as_str(),
    };
    names_a_document(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_documents_in_one_title() {
        assert!(names_several_documents(
            "Widerrufsbelehrung & Widerrufsformular"
        ));
        assert!(names_several_documents("AGB und Kundeninformationen"));
        assert!(names_several_documents(
            "Terms of Service and Privacy Policy"
        ));
        assert!(!names_several_documents("Terms and Conditions"));
        assert!(!names_several_documents("AGB & Widerrufsrecht"));
        assert!(!names_several_documents("Datenschutzerklärung"));
    }
}

//! What closes the content on the page rather than the document: teasers and calls to action
//! to other pages, and the site's widgets under the text (share buttons, "Was this page
//! helpful?"). Both are cut from the end by [`super::refine::trim_edges`].

use super::refine::{PROTECTED, is_heading, names_site_phrase};
use crate::structure::blocks::Block;

/// Most words of a line in a teaser or a call to action.
const TEASER_LINE_WORDS: usize = 25;

/// Most words of a button's label ("Prendre rendez-vous", "Kontakt aufnehmen", "Read").
const BUTTON_WORDS: usize = 5;

/// The last block before the teasers and calls to action that end the content at `last`:
/// page builders stack sections, and the one after the document invites the reader elsewhere
/// ("Un projet sur-mesure ?" / "Venez nous rencontrer …" / [Prendre rendez-vous]; a card per
/// other legal page with a line about it and its [Read] link). Each is a heading element
/// without a number, then two or three lines of at most
/// [`TEASER_LINE_WORDS`] words, no number, address, phone, e-mail or colon-ended lead-in
/// among them, one at least mostly text (what the teaser leads to), the last a button
/// ([`is_button`]). The document's own last section holds its text or its contact details,
/// not only a link away; a bare list of links under a heading ("Other privacy statements",
/// "See also") stays, as the golds keep it. Known limit: a document whose last section is
/// only "Contact us" / one line / a link to a contact form reads the same and goes.
pub(super) fn before_teasers(blocks: &[Block], first: usize, last: usize) -> usize {
    let mut end = last;
    while let Some(h) = (first + 1..=end).rev().find(|&i| is_heading(&blocks[i])) {
        let body = &blocks[h + 1..=end];
        let teaser = blocks[h].enumeration.is_none()
            && (2..=3).contains(&body.len())
            && body.iter().any(|b| b.link_share < 0.5)
            && body.last().is_some_and(is_button)
            && body.iter().all(|b| {
                b.words <= TEASER_LINE_WORDS
                    && b.enumeration.is_none()
                    && !b.text.trim_end().ends_with(':')
                    && !PROTECTED.is_match(&b.text)
            });
        if !teaser {
            break;
        }
        end = h - 1;
    }
    end
}

/// A link to another page that reads as a button: at most [`BUTTON_WORDS`] words, no digit (a
/// version's date is the document's own archive), no sentence ("See the “Privacy” page.").
fn is_button(b: &Block) -> bool {
    let text = b.text.trim_end();
    b.link_only
        && b.away_links > 0
        && b.words <= BUTTON_WORDS
        && !text.chars().any(|c| c.is_ascii_digit())
        && !text.ends_with(['.', ':'])
}

/// Most words of a widget's control ("Facebook", "Yes No", "Tweet").
const CONTROL_WORDS: usize = 3;

/// Most words of the site phrase that opens a widget ("Share this:", "Was this page helpful?").
const WIDGET_PHRASE_WORDS: usize = 6;

/// Most controls of a widget: a share box's networks, a feedback question's answers.
const WIDGET_CONTROLS: usize = 12;

/// The last block before a site widget that ends the content at `last`: a short site phrase
/// ("Share this:", "Teilen:", "Was this page helpful?") followed only by its controls — links or
/// lines of at most [`CONTROL_WORDS`] words ("Facebook", "X"; the buttons "Yes" "No"). The
/// phrase may be a heading element (Jetpack's `<h3 class="sd-title">Share this:</h3>`), which
/// protects it from the edge trim, and its controls are too few for a link list. At most
/// [`WIDGET_CONTROLS`] controls, none a heading (but a label ending in a colon: Jetpack's "Like
/// this:"), numbered, holding a digit, or an address, phone or e-mail line: a document's short closing lines ("Stand: 03/2024") are no controls, and its last
/// line that is a link (an e-mail address, a contact page) follows text, not such a phrase.
pub(super) fn before_site_widget(blocks: &[Block], first: usize, last: usize) -> usize {
    let mut i = last;
    while i > first {
        let b = &blocks[i];
        // The phrase is no link itself ("Facebook" names a site phrase, as a control).
        if i < last && !b.link_only && b.words <= WIDGET_PHRASE_WORDS && names_site_phrase(b) {
            return i - 1;
        }
        // A heading among the controls only as a widget's label ("Like this:").
        let control = (b.link_only || b.words <= CONTROL_WORDS)
            && (!is_heading(b) || b.text.trim_end().ends_with(':'))
            && b.enumeration.is_none()
            && !b.text.bytes().any(|c| c.is_ascii_digit())
            && !PROTECTED.is_match(&b.text);
        if !control || last - i >= WIDGET_CONTROLS {
            break;
        }
        i -= 1;
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::refine::tests::blocks_of;

    #[test]
    fn a_share_widget_or_a_feedback_question_under_the_text_goes() {
        let text = "<div><h2>Contact</h2><p>Questions about this policy can be sent to us by post \
            to our shop at any time.</p>";
        let share = format!(
            "{text}<div><h3>Share this:</h3><ul><li><a href=\"?share=facebook\">Facebook</a></li>\
             <li><a href=\"?share=x\">X</a></li></ul></div></div>"
        );
        let feedback = format!(
            "{text}<div><p>Was this page helpful?</p><button>Yes</button> <button>No</button>\
             </div></div>"
        );
        for html in [share, feedback] {
            let b = blocks_of(&html);
            assert_eq!(before_site_widget(&b, 0, b.len() - 1), 1, "{html}");
        }
        // A document's own last line that is a link follows its text, not a site phrase.
        let b = blocks_of(&format!(
            "{text}<p><a href=mailto:p@x.de>p@x.de</a></p></div>"
        ));
        assert_eq!(before_site_widget(&b, 0, b.len() - 1), b.len() - 1);
    }
}

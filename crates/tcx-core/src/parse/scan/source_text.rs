//! Pass 1's side of reading the page between the start tags (see `parse::gaps`): text nodes
//! are counted into their element, end tags close records as lol_html's stack pairs them.

use lol_html::html_content::TextType;

use super::{ElementId, ScanState};
use crate::parse::gaps::{GapReader, TokenizerState, is_ignored_end_tag, lower_tag};

/// Numbers of the tags of elements only lol_html's stack holds start here.
const PARSER_ONLY_TAG: u32 = u32::MAX / 2;

impl GapReader for ScanState {
    fn tokenizer(&mut self) -> &mut TokenizerState {
        &mut self.tokenizer
    }

    fn text(&mut self, raw: &str, kind: TextType) {
        self.text_node(raw, kind);
    }

    /// Closes what the end tag closes in a browser (see
    /// [`crate::parse::stack::ElementStack::close_by_name`]), whether or not lol_html's stack
    /// pairs it with an element (its own stack is kept in step for the tokenizer; where the two
    /// readings differ, `repaired_end_tags` counts it). `</body>` and `</html>` leave the
    /// elements open (browsers ignore them) but still leave lol_html's stack, as with its
    /// handlers.
    fn end_tag(&mut self, name: &str, end: usize) {
        let name = lower_tag(name);
        let Some(tag) = self.tag_ids.get(name.as_ref()).copied().or_else(|| {
            let extra = self.parser_only_tags.iter().position(|t| *t == name)?;
            Some(PARSER_ONLY_TAG + extra as u32)
        }) else {
            return;
        };
        let mut popped = std::mem::take(&mut self.popped);
        let paired = self.parser_open.pop_to(&tag, &mut popped);
        if !is_ignored_end_tag(&name) {
            // lol_html's handlers would close the popped elements still open here.
            popped.retain(|&id| self.stack.is_open(id));
            let closed = self.close_by_name(&name, end);
            if closed != popped.len() || (!paired && closed > 0) {
                self.stats.repaired_end_tags += 1;
            }
        }
        popped.clear();
        self.popped = popped;
    }
}

impl ScanState {
    /// Records an element lol_html keeps on its element stack (`id` is `None` for one pass 1
    /// keeps no record of, such as a void element it reports as able to have content).
    pub(super) fn parser_opened(&mut self, tag: &str, id: Option<ElementId>) {
        let tag = match id {
            Some(id) => self.stats.elements[id as usize].tag,
            // Not interned among the records' tags (their table is part of the result).
            None => match self.parser_only_tags.iter().position(|t| t == tag) {
                Some(i) => PARSER_ONLY_TAG + i as u32,
                None => {
                    self.parser_only_tags.push(tag.to_owned());
                    PARSER_ONLY_TAG + self.parser_only_tags.len() as u32 - 1
                }
            },
        };
        self.parser_open.push(tag, id);
    }
}

//! The analysis's knobs. [`Default`] gives the documented defaults of `config/default.toml`;
//! the service validates configured values before they reach here.

/// Knobs of the analysis. [`Default`] gives the documented defaults of `config/default.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisOptions {
    /// Share of the most common style's characters that the chosen element must hold
    /// (`coverage >= threshold`). Must be in (0.5, 1].
    pub threshold: f64,
    /// A text node counts for the style statistics only with at least this many words
    /// (short-text exclusion; the paper's "more than 3 words" is 4).
    pub min_words: usize,
    /// Languages the detector may answer (ISO 639-1 codes).
    pub languages: Vec<String>,
    /// Upper bound for the memory lol_html may use for one pass, in bytes.
    pub max_parser_memory: usize,
    /// The language a job expects (ISO 639-1); wins when detection is unsure.
    pub lang_hint: Option<String>,
    /// Sentences, tokens and normalisation.
    pub text: TextOptions,
}

impl AnalysisOptions {
    /// These options doing only the work a Document with `output` shows: no sentence
    /// splitting when the Document will not carry sentences.
    pub fn for_output(mut self, output: crate::model::OutputOptions) -> Self {
        self.text.sentences = output.sentences;
        self
    }
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            threshold: 0.85,
            min_words: 4,
            languages: vec!["de".to_owned(), "en".to_owned()],
            max_parser_memory: 64 * 1024 * 1024,
            lang_hint: None,
            text: TextOptions::default(),
        }
    }
}

/// Knobs of the text layer (`[text]` in the configuration).
#[derive(Debug, Clone, PartialEq)]
pub struct TextOptions {
    /// Split the sections into sentences at all. Off when the Document will not carry them
    /// (`[output] sentences = false`): the section languages are still detected.
    pub sentences: bool,
    /// Emit tokens per sentence.
    pub tokens: bool,
    /// Join a short list into the sentence that introduces it (ending with `:`).
    pub join_short_lists: bool,
    /// A list joins its introduction only with at most this many items …
    pub short_list_max_items: usize,
    /// … of at most this many words each. Longer lists give one sentence per item.
    pub short_list_max_words: usize,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            sentences: true,
            tokens: false,
            join_short_lists: true,
            short_list_max_items: 5,
            short_list_max_words: 6,
        }
    }
}

//! Settings: `config/default.toml` (compiled in) + an optional file + `TCX__…` environment
//! overrides, validated before use.

use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

use crate::analyze::AnalysisOptions;

/// The defaults, compiled into the binary so tcx runs from any directory.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// All settings of tcx.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Content extraction.
    pub extraction: ExtractionSettings,
    /// Language detection.
    pub language: LanguageSettings,
    /// HTTP fetching.
    pub fetch: FetchSettings,
}

/// Content extraction settings (`[extraction]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractionSettings {
    /// Coverage threshold of the LCA step, in (0.5, 1].
    pub threshold: f64,
    /// Minimum words of a text node to count (short-text exclusion).
    pub min_words: usize,
    /// Parser memory budget per pass, in bytes.
    pub max_parser_memory: usize,
}

/// Language detection settings (`[language]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageSettings {
    /// Allowed ISO 639-1 codes.
    pub allowed: Vec<String>,
}

/// HTTP fetch settings (`[fetch]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchSettings {
    /// Connect timeout in seconds.
    pub connect_timeout_secs: u64,
    /// Total request timeout in seconds.
    pub timeout_secs: u64,
    /// Redirects to follow.
    pub max_redirects: usize,
    /// Largest decompressed body, in bytes.
    pub max_body_bytes: usize,
    /// User-Agent header.
    pub user_agent: String,
    /// Whether non-public addresses may be fetched.
    pub allow_private_networks: bool,
}

/// A configuration that could not be loaded or is invalid.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// A source could not be read or parsed, or a value has the wrong type.
    #[error("cannot load configuration: {0}")]
    Load(#[from] config::ConfigError),
    /// A value is out of its allowed range.
    #[error("invalid configuration: {key} = {value}: {reason}")]
    Invalid {
        /// The dotted key, e.g. `extraction.threshold`.
        key: &'static str,
        /// The offending value.
        value: String,
        /// What is allowed.
        reason: &'static str,
    },
}

impl Settings {
    /// Loads the defaults, then `file` (if any), then `TCX__SECTION__KEY` environment
    /// variables, and validates the result.
    pub fn load(file: Option<&Path>) -> Result<Settings, ConfigError> {
        Self::load_with_env(file, None)
    }

    /// Like [`Settings::load`] but reads the environment overrides from `env` instead of the
    /// process environment when given (for tests).
    pub fn load_with_env(
        file: Option<&Path>,
        env: Option<std::collections::HashMap<String, String>>,
    ) -> Result<Settings, ConfigError> {
        use config::{Config, Environment, File, FileFormat};
        let mut builder =
            Config::builder().add_source(File::from_str(DEFAULT_TOML, FileFormat::Toml));
        if let Some(path) = file {
            if !path.exists() {
                return Err(ConfigError::Load(config::ConfigError::Message(format!(
                    "configuration file {} not found",
                    path.display()
                ))));
            }
            builder = builder.add_source(File::from(path).format(FileFormat::Toml));
        }
        let mut environment = Environment::with_prefix("TCX")
            .prefix_separator("__")
            .separator("__")
            .list_separator(",")
            .with_list_parse_key("language.allowed")
            .try_parsing(true);
        if let Some(vars) = env {
            environment = environment.source(Some(vars));
        }
        let settings: Settings = builder.add_source(environment).build()?.try_deserialize()?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks every value against its documented range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let e = &self.extraction;
        if !(e.threshold > 0.5 && e.threshold <= 1.0) {
            return Err(invalid(
                "extraction.threshold",
                e.threshold,
                "must be greater than 0.5 and at most 1.0",
            ));
        }
        if e.min_words == 0 {
            return Err(invalid(
                "extraction.min_words",
                e.min_words,
                "must be at least 1",
            ));
        }
        if e.max_parser_memory < 1 << 20 {
            return Err(invalid(
                "extraction.max_parser_memory",
                e.max_parser_memory,
                "must be at least 1048576 (1 MiB)",
            ));
        }
        if self.language.allowed.is_empty() {
            return Err(invalid(
                "language.allowed",
                "[]",
                "must name at least one language",
            ));
        }
        for code in &self.language.allowed {
            if crate::analyze::language::lang_from_code(code).is_none() {
                return Err(invalid(
                    "language.allowed",
                    code,
                    "unknown ISO 639-1 code (e.g. de, en, fr)",
                ));
            }
        }
        let f = &self.fetch;
        if f.connect_timeout_secs == 0 || f.connect_timeout_secs > 300 {
            return Err(invalid(
                "fetch.connect_timeout_secs",
                f.connect_timeout_secs,
                "must be between 1 and 300",
            ));
        }
        if f.timeout_secs == 0 || f.timeout_secs > 3600 {
            return Err(invalid(
                "fetch.timeout_secs",
                f.timeout_secs,
                "must be between 1 and 3600",
            ));
        }
        if f.max_redirects > 20 {
            return Err(invalid(
                "fetch.max_redirects",
                f.max_redirects,
                "must be at most 20",
            ));
        }
        if f.max_body_bytes < 1024 {
            return Err(invalid(
                "fetch.max_body_bytes",
                f.max_body_bytes,
                "must be at least 1024",
            ));
        }
        if f.user_agent.trim().is_empty() {
            return Err(invalid("fetch.user_agent", "\"\"", "must not be empty"));
        }
        Ok(())
    }

    /// The analysis options these settings describe.
    pub fn analysis_options(&self) -> AnalysisOptions {
        AnalysisOptions {
            threshold: self.extraction.threshold,
            min_words: self.extraction.min_words,
            languages: self.language.allowed.clone(),
            max_parser_memory: self.extraction.max_parser_memory,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        // The compiled-in defaults are valid by construction; a test guards that.
        Settings::load_with_env(None, Some(Default::default()))
            .expect("compiled-in default configuration is valid")
    }
}

fn invalid(key: &'static str, value: impl ToString, reason: &'static str) -> ConfigError {
    ConfigError::Invalid {
        key,
        value: value.to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> Option<HashMap<String, String>> {
        Some(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn defaults_are_valid_and_match_analysis_defaults() {
        let s = Settings::load_with_env(None, env(&[])).unwrap();
        assert_eq!(s.analysis_options(), AnalysisOptions::default());
        assert_eq!(s.fetch.max_body_bytes, 10 * 1024 * 1024);
    }

    #[test]
    fn environment_overrides() {
        let s = Settings::load_with_env(
            None,
            env(&[
                ("TCX__EXTRACTION__THRESHOLD", "0.9"),
                ("TCX__FETCH__MAX_REDIRECTS", "2"),
                ("TCX__LANGUAGE__ALLOWED", "de,en,fr"),
            ]),
        )
        .unwrap();
        assert_eq!(s.extraction.threshold, 0.9);
        assert_eq!(s.fetch.max_redirects, 2);
        assert_eq!(s.language.allowed, vec!["de", "en", "fr"]);
    }

    #[test]
    fn invalid_values_are_rejected_with_the_key() {
        for (k, v, needle) in [
            ("TCX__EXTRACTION__THRESHOLD", "0.5", "extraction.threshold"),
            ("TCX__EXTRACTION__THRESHOLD", "1.5", "extraction.threshold"),
            ("TCX__EXTRACTION__MIN_WORDS", "0", "extraction.min_words"),
            ("TCX__LANGUAGE__ALLOWED", "xx", "language.allowed"),
            ("TCX__FETCH__TIMEOUT_SECS", "0", "fetch.timeout_secs"),
        ] {
            let err = Settings::load_with_env(None, env(&[(k, v)])).unwrap_err();
            assert!(err.to_string().contains(needle), "{k}={v}: {err}");
        }
        let err = Settings::load_with_env(None, env(&[("TCX__EXTRACTION__THRESHOLD", "high")]))
            .unwrap_err();
        assert!(err.to_string().contains("threshold"), "{err}");
    }

    #[test]
    fn file_overrides_and_missing_file() {
        let dir = std::env::temp_dir().join(format!("tcx-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.toml");
        std::fs::write(&path, "[extraction]\nthreshold = 0.95\n").unwrap();
        let s = Settings::load_with_env(Some(&path), env(&[])).unwrap();
        assert_eq!(s.extraction.threshold, 0.95);
        std::fs::write(&path, "[extraction]\nthreshhold = 0.95\n").unwrap();
        assert!(Settings::load_with_env(Some(&path), env(&[])).is_err());
        let missing = dir.join("missing.toml");
        let err = Settings::load_with_env(Some(&missing), env(&[])).unwrap_err();
        assert!(err.to_string().contains("not found"));
    }
}

//! Settings: `config/default.toml` (compiled in) + an optional file + `TCX__…` environment
//! overrides, validated before use.

use std::path::Path;

use serde::Deserialize;
use thiserror::Error;

use tcx_core::AnalysisOptions;

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
    /// Sentences, tokens and normalisation.
    pub text: TextSettings,
    /// HTTP fetching.
    pub fetch: FetchSettings,
    /// RabbitMQ connection and topology names.
    pub amqp: AmqpSettings,
    /// Worker and batch concurrency, retries, shutdown.
    pub worker: WorkerSettings,
    /// The metrics endpoint.
    pub metrics: MetricsSettings,
    /// Logging.
    pub log: LogSettings,
    /// What a result carries besides the section tree.
    pub output: OutputSettings,
    /// Finding a shop's legal pages (site jobs).
    pub discovery: DiscoverySettings,
}

/// Discovery settings (`[discovery]`): site jobs, robots.txt, same-site rules.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscoverySettings {
    /// Most page jobs made from one site job (1 to 100).
    pub max_pages: usize,
    /// Hosts outside a shop's registrable domain whose pages count as the shop's.
    pub external_hosts: Vec<String>,
    /// Honour robots.txt for the start page and every page found.
    pub respect_robots: bool,
    /// Seconds to wait for a robots.txt (1 to 60); no answer in time means "disallow all".
    pub robots_timeout_secs: u64,
    /// Seconds a robots.txt is cached per origin (0 to 86400).
    pub robots_cache_secs: u64,
    /// A page job whose page is not a legal document gets the result `not_legal_page`.
    pub reject_non_legal_pages: bool,
}

/// Output settings (`[output]`): the optional copies of the text in a Document.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSettings {
    /// Include `text`, the main content as one string.
    pub text: bool,
    /// Include `sentences` (and `tokens`) per section.
    pub sentences: bool,
}

impl OutputSettings {
    /// As the analysis library's options.
    pub fn options(&self) -> tcx_core::OutputOptions {
        tcx_core::OutputOptions {
            text: self.text,
            sentences: self.sentences,
        }
    }
}

/// Logging settings (`[log]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    /// `text` or `json`.
    pub format: LogFormat,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines; ANSI colours only when standard error is a terminal.
    Text,
    /// One JSON object a line.
    Json,
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
    /// Languages whose rules the text is processed with (ISO 639-1); any language is reported.
    pub allowed: Vec<String>,
}

/// Text layer settings (`[text]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextSettings {
    /// Emit tokens per sentence.
    pub tokens: bool,
    /// Join a short list into the sentence introducing it.
    pub join_short_lists: bool,
    /// Most items of a list that joins its introduction (1 to 100).
    pub short_list_max_items: usize,
    /// Most words of each item of such a list (1 to 1000).
    pub short_list_max_words: usize,
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
    /// Host names pinned to addresses, as `host=ip` (like curl's `--resolve`).
    pub resolve: Vec<String>,
}

impl FetchSettings {
    /// The pinned hosts of `resolve`, parsed; `Err` names the first bad entry.
    pub fn pinned_hosts(&self) -> Result<Vec<(String, std::net::IpAddr)>, String> {
        self.resolve
            .iter()
            .map(|entry| {
                let (host, ip) = entry.split_once('=').ok_or_else(|| entry.clone())?;
                let ip = ip.trim().parse().map_err(|_| entry.clone())?;
                let host = host.trim().to_ascii_lowercase();
                if host.is_empty() || host.contains(['/', ':', ' ']) {
                    return Err(entry.clone());
                }
                Ok((host, ip))
            })
            .collect()
    }
}

/// Type of the durable queues (`amqp.queue_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueType {
    /// A classic queue (single node).
    Classic,
    /// A quorum queue (replicated, Raft).
    Quorum,
}

impl QueueType {
    /// The value of the `x-queue-type` argument.
    pub fn as_str(self) -> &'static str {
        match self {
            QueueType::Classic => "classic",
            QueueType::Quorum => "quorum",
        }
    }
}

/// RabbitMQ settings (`[amqp]`).
#[derive(Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmqpSettings {
    /// AMQP URI, e.g. `amqp://user:pass@host:5672/%2f`. Never logged (it holds a password).
    pub url: String,
    /// Exchange jobs are published to.
    pub jobs_exchange: String,
    /// Queue the workers consume.
    pub jobs_queue: String,
    /// Routing key of jobs.
    pub jobs_routing_key: String,
    /// Exchange results are published to.
    pub results_exchange: String,
    /// Queue bound to the results exchange.
    pub results_queue: String,
    /// Routing key of results.
    pub results_routing_key: String,
    /// Prefix of the per-attempt retry queues (`<prefix>.<n>`).
    pub retry_queue_prefix: String,
    /// Exchange of dead-lettered (unparseable) jobs.
    pub dead_letter_exchange: String,
    /// Queue of dead-lettered jobs.
    pub dead_letter_queue: String,
    /// Queue type of the jobs, results and dead-letter queues.
    pub queue_type: QueueType,
    /// Quorum queues only: deliveries of one job before the broker dead-letters it (a job
    /// that keeps crashing workers); 0 = unlimited.
    pub delivery_limit: u32,
    /// First reconnection delay in milliseconds.
    pub reconnect_initial_ms: u64,
    /// Largest reconnection delay in milliseconds.
    pub reconnect_max_ms: u64,
    /// Largest message the worker publishes, in bytes. A result over it is replaced by an
    /// error result of kind `result_too_large` (the broker would refuse it and the job would be
    /// redelivered forever). Default 16 MiB, the limit of current RabbitMQ versions.
    pub max_message_bytes: usize,
}

impl std::fmt::Debug for AmqpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL may hold a password: show only that it is set.
        f.debug_struct("AmqpSettings")
            .field("url", &"<redacted>")
            .field("jobs_exchange", &self.jobs_exchange)
            .field("jobs_queue", &self.jobs_queue)
            .field("results_exchange", &self.results_exchange)
            .field("results_queue", &self.results_queue)
            .field("retry_queue_prefix", &self.retry_queue_prefix)
            .field("dead_letter_queue", &self.dead_letter_queue)
            .field("queue_type", &self.queue_type)
            .finish_non_exhaustive()
    }
}

/// Worker settings (`[worker]`), also used by `tcx batch`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerSettings {
    /// Jobs in flight: the AMQP prefetch and the batch concurrency.
    pub concurrency: usize,
    /// Threads for the analysis; 0 = one per core.
    pub analysis_threads: usize,
    /// Concurrent requests to one host.
    pub per_host_limit: usize,
    /// Retries of a transient failure.
    pub max_retries: u32,
    /// Delay before the first retry, in milliseconds (doubles per attempt).
    pub retry_base_delay_ms: u64,
    /// Largest retry delay in milliseconds.
    pub retry_max_delay_ms: u64,
    /// Longest wait for in-flight jobs at shutdown, in seconds.
    pub drain_timeout_secs: u64,
}

impl WorkerSettings {
    /// The number of analysis threads: `analysis_threads`, or the number of cores when 0.
    pub fn analysis_threads(&self) -> usize {
        if self.analysis_threads > 0 {
            self.analysis_threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    /// The delay before retry `n` (1-based): `base * 2^(n-1)`, capped at the maximum.
    pub fn retry_delay(&self, n: u32) -> std::time::Duration {
        let factor = 1u64 << n.saturating_sub(1).min(30);
        std::time::Duration::from_millis(
            self.retry_base_delay_ms
                .saturating_mul(factor)
                .min(self.retry_max_delay_ms),
        )
    }
}

/// Metrics endpoint settings (`[metrics]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSettings {
    /// Whether the worker serves `/metrics`, `/healthz` and `/readyz`.
    pub enabled: bool,
    /// Listen address, e.g. `0.0.0.0:9464`.
    pub address: String,
}

/// A configuration that could not be loaded or is invalid.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// A source could not be read or parsed, or a value has the wrong type.
    #[error("cannot load configuration: {0}")]
    Load(#[from] config::ConfigError),
    /// The `--config` file could not be read or is not valid TOML.
    #[error("cannot load configuration file {}: {message}", path.display())]
    File {
        /// The file as an absolute path (the one actually opened).
        path: std::path::PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A value is out of its allowed range.
    #[error("invalid configuration: {key} = {value}: {reason}")]
    Invalid {
        /// The dotted key, e.g. `extraction.threshold`.
        key: &'static str,
        /// The offending value.
        value: String,
        /// What is allowed.
        reason: String,
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
            // Read and parse the file here, so that every error names the file as opened.
            let shown = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
            let file_error = |message: String| ConfigError::File {
                path: shown.clone(),
                message,
            };
            if !path.exists() {
                return Err(file_error("not found".into()));
            }
            let text = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
            let source = File::from_str(&text, FileFormat::Toml);
            if let Err(e) = Config::builder().add_source(source.clone()).build() {
                return Err(file_error(e.to_string()));
            }
            builder = builder.add_source(source);
        }
        let mut environment = Environment::with_prefix("TCX")
            .prefix_separator("__")
            .separator("__")
            .list_separator(",")
            .with_list_parse_key("language.allowed")
            .with_list_parse_key("discovery.external_hosts")
            .with_list_parse_key("fetch.resolve")
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
        within("extraction.min_words", e.min_words as u64, 1, u64::MAX)?;
        within(
            "extraction.max_parser_memory",
            e.max_parser_memory as u64,
            1 << 20,
            u64::MAX,
        )?;
        if self.language.allowed.is_empty() {
            return Err(invalid(
                "language.allowed",
                "[]",
                "must name at least one language",
            ));
        }
        for code in &self.language.allowed {
            if !tcx_core::is_known_language(code) {
                return Err(invalid(
                    "language.allowed",
                    code,
                    "unknown ISO 639-1 code (e.g. de, en, fr)",
                ));
            }
        }
        let t = &self.text;
        within(
            "text.short_list_max_items",
            t.short_list_max_items as u64,
            1,
            100,
        )?;
        within(
            "text.short_list_max_words",
            t.short_list_max_words as u64,
            1,
            1000,
        )?;
        let f = &self.fetch;
        within("fetch.connect_timeout_secs", f.connect_timeout_secs, 1, 300)?;
        within("fetch.timeout_secs", f.timeout_secs, 1, 3600)?;
        within("fetch.max_redirects", f.max_redirects as u64, 0, 20)?;
        within(
            "fetch.max_body_bytes",
            f.max_body_bytes as u64,
            1024,
            u64::MAX,
        )?;
        if f.user_agent.trim().is_empty() {
            return Err(invalid("fetch.user_agent", "\"\"", "must not be empty"));
        }
        if let Err(entry) = f.pinned_hosts() {
            return Err(invalid(
                "fetch.resolve",
                &entry,
                "entries must be host=ip, e.g. shop.test=127.0.0.1",
            ));
        }
        let d = &self.discovery;
        within("discovery.max_pages", d.max_pages as u64, 1, 100)?;
        within(
            "discovery.robots_timeout_secs",
            d.robots_timeout_secs,
            1,
            60,
        )?;
        within(
            "discovery.robots_cache_secs",
            d.robots_cache_secs,
            0,
            86_400,
        )?;
        for host in &d.external_hosts {
            let plain = host.trim().trim_start_matches('.');
            if plain.is_empty() || plain.contains(['/', ':', ' ']) {
                return Err(invalid(
                    "discovery.external_hosts",
                    host,
                    "must be host names such as legal-texts.example (no scheme, port or path)",
                ));
            }
        }
        self.validate_service()
    }

    /// Checks the `[amqp]`, `[worker]` and `[metrics]` sections.
    fn validate_service(&self) -> Result<(), ConfigError> {
        let a = &self.amqp;
        if !(a.url.starts_with("amqp://") || a.url.starts_with("amqps://")) {
            return Err(invalid(
                "amqp.url",
                "<redacted>",
                "must start with amqp:// or amqps://",
            ));
        }
        for (key, value) in [
            ("amqp.jobs_exchange", &a.jobs_exchange),
            ("amqp.jobs_queue", &a.jobs_queue),
            ("amqp.results_exchange", &a.results_exchange),
            ("amqp.results_queue", &a.results_queue),
            ("amqp.retry_queue_prefix", &a.retry_queue_prefix),
            ("amqp.dead_letter_exchange", &a.dead_letter_exchange),
            ("amqp.dead_letter_queue", &a.dead_letter_queue),
        ] {
            if value.trim().is_empty() || value.len() > 200 || value.starts_with("amq.") {
                return Err(invalid(
                    key,
                    value,
                    "must be 1 to 200 characters and not start with amq.",
                ));
            }
        }
        if a.jobs_queue == a.results_queue || a.jobs_queue == a.dead_letter_queue {
            return Err(invalid(
                "amqp.jobs_queue",
                &a.jobs_queue,
                "must differ from the results and dead-letter queues",
            ));
        }
        if a.reconnect_initial_ms == 0 || a.reconnect_initial_ms > a.reconnect_max_ms {
            return Err(invalid(
                "amqp.reconnect_initial_ms",
                a.reconnect_initial_ms,
                "must be at least 1 and at most amqp.reconnect_max_ms",
            ));
        }
        // An error result must always fit.
        within(
            "amqp.max_message_bytes",
            a.max_message_bytes as u64,
            4096,
            512 << 20,
        )?;
        let w = &self.worker;
        within("worker.concurrency", w.concurrency as u64, 1, 1000)?;
        within("worker.analysis_threads", w.analysis_threads as u64, 0, 256)?;
        within("worker.per_host_limit", w.per_host_limit as u64, 1, 100)?;
        within("worker.max_retries", w.max_retries as u64, 0, 10)?;
        if w.retry_base_delay_ms == 0 || w.retry_base_delay_ms > w.retry_max_delay_ms {
            return Err(invalid(
                "worker.retry_base_delay_ms",
                w.retry_base_delay_ms,
                "must be at least 1 and at most worker.retry_max_delay_ms",
            ));
        }
        within("worker.drain_timeout_secs", w.drain_timeout_secs, 1, 3600)?;
        if self
            .metrics
            .address
            .parse::<std::net::SocketAddr>()
            .is_err()
        {
            return Err(invalid(
                "metrics.address",
                &self.metrics.address,
                "must be an IP address and port, e.g. 0.0.0.0:9464",
            ));
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
            lang_hint: None,
            text: tcx_core::TextOptions {
                sentences: true,
                tokens: self.text.tokens,
                join_short_lists: self.text.join_short_lists,
                short_list_max_items: self.text.short_list_max_items,
                short_list_max_words: self.text.short_list_max_words,
            },
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

fn invalid(key: &'static str, value: impl ToString, reason: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        key,
        value: value.to_string(),
        reason: reason.into(),
    }
}

/// Checks that a numeric setting lies in `min..=max` (`u64::MAX`: no upper bound).
fn within(key: &'static str, value: u64, min: u64, max: u64) -> Result<(), ConfigError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    let reason = match (min, max) {
        (_, u64::MAX) => format!("must be at least {min}"),
        (0, _) => format!("must be at most {max}"),
        _ => format!("must be between {min} and {max}"),
    };
    Err(invalid(key, value, reason))
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
    fn text_settings_reach_the_analysis_options() {
        let s = Settings::load_with_env(None, env(&[("TCX__TEXT__TOKENS", "true")])).unwrap();
        assert!(s.analysis_options().text.tokens);
        assert!(!Settings::default().analysis_options().text.tokens);
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
    fn service_sections_and_overrides() {
        let s = Settings::load_with_env(
            None,
            env(&[
                ("TCX__AMQP__QUEUE_TYPE", "quorum"),
                ("TCX__WORKER__CONCURRENCY", "4"),
                ("TCX__AMQP__URL", "amqp://u:secret@rabbit:5672/%2f"),
            ]),
        )
        .unwrap();
        assert_eq!(s.amqp.queue_type, QueueType::Quorum);
        assert_eq!(s.worker.concurrency, 4);
        assert!(!format!("{:?}", s.amqp).contains("secret"));
        assert!(s.worker.analysis_threads() >= 1);
        assert_eq!(s.worker.retry_delay(1).as_millis(), 2000);
        assert_eq!(s.worker.retry_delay(3).as_millis(), 8000);
        assert_eq!(s.worker.retry_delay(30).as_millis(), 300_000);
    }

    #[test]
    fn invalid_values_are_rejected_with_the_key() {
        for (k, v, needle) in [
            ("TCX__EXTRACTION__THRESHOLD", "0.5", "extraction.threshold"),
            ("TCX__EXTRACTION__THRESHOLD", "1.5", "extraction.threshold"),
            ("TCX__EXTRACTION__MIN_WORDS", "0", "extraction.min_words"),
            ("TCX__LANGUAGE__ALLOWED", "xx", "language.allowed"),
            ("TCX__FETCH__TIMEOUT_SECS", "0", "fetch.timeout_secs"),
            (
                "TCX__TEXT__SHORT_LIST_MAX_ITEMS",
                "0",
                "text.short_list_max_items",
            ),
            ("TCX__AMQP__URL", "http://x", "amqp.url"),
            ("TCX__AMQP__QUEUE_TYPE", "stream", "queue_type"),
            ("TCX__WORKER__CONCURRENCY", "0", "worker.concurrency"),
            ("TCX__WORKER__MAX_RETRIES", "11", "worker.max_retries"),
            ("TCX__METRICS__ADDRESS", "localhost", "metrics.address"),
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
        // A broken file is named by its absolute path, with the parser's reason.
        std::fs::write(&path, "[extraction\nthreshold = ").unwrap();
        let err = Settings::load_with_env(Some(&path), env(&[]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&path.display().to_string()) && err.contains("configuration file"),
            "{err}"
        );
    }
}

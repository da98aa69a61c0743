//! [`VariantCache`]: the variants a stream of requests names, each parsed once.

use std::collections::HashMap;
use std::time::SystemTime;

use serde_json::Value;

use super::answer::Answer;
use super::error::RequestError;
use super::job::{job_with_variant, ScoreJob};
use super::wire::ScoreRequest;
use crate::{score, Score, Variant, VariantError};

/// The variants a stream of requests named, each parsed once: parsing a variant's TOML costs
/// about a hundred times what scoring one hand does. A variant read from a file is read again
/// when the file's modification time changes.
#[derive(Default)]
pub struct VariantCache {
    parsed: HashMap<String, (Option<SystemTime>, Variant)>,
}

impl VariantCache {
    /// Entries kept at most: each distinct path a long-lived process scores with adds one, so
    /// the cache is emptied when full rather than grown without bound.
    const CAPACITY: usize = 64;

    pub fn new() -> VariantCache {
        VariantCache::default()
    }

    /// The variant `name` names (a shipped name or a file path), parsed on first use.
    pub fn get(&mut self, name: &str) -> Result<&Variant, VariantError> {
        // A shipped name never changes; a file is checked by its modification time.
        let stamp = match Variant::builtin_text(name) {
            Some(_) => None,
            None => std::fs::metadata(name).and_then(|m| m.modified()).ok(),
        };
        let fresh = matches!(self.parsed.get(name), Some((t, _)) if *t == stamp);
        if !fresh {
            let variant = Variant::by_name_or_path(name)?;
            if self.parsed.len() >= VariantCache::CAPACITY {
                self.parsed.clear();
            }
            self.parsed.insert(name.to_string(), (stamp, variant));
        }
        Ok(&self.parsed[name].1)
    }

    /// [`score_json`](crate::score_json) with the variant taken from the cache: the JSON answer to one JSON
    /// request, or an error naming the problem.
    pub fn score_json(&mut self, text: &str) -> Result<String, RequestError> {
        let scored = self.score_request(text)?;
        Ok(scored.answer().to_json_string())
    }

    /// [`VariantCache::score_json`]'s answer as a JSON value.
    pub fn score_value(&mut self, text: &str) -> Result<Value, RequestError> {
        let scored = self.score_request(text)?;
        Ok(scored.job.to_json(&scored.score))
    }

    /// Scores one JSON request with the variant borrowed from the cache, for a caller that
    /// writes the answer straight into its own buffer ([`ScoredRequest::answer`],
    /// [`Answer::write_json`]; `taisim score --jsonl`): the bytes of
    /// [`VariantCache::score_json`], with no variant copied and no JSON tree built.
    pub fn score_request(&mut self, text: &str) -> Result<ScoredRequest<'_>, RequestError> {
        let req = ScoreRequest::parse(text)?;
        let variant = self.get(&req.variant)?;
        let job = job_with_variant(req, variant)?;
        let score = score(&job.input, job.variant)?;
        Ok(ScoredRequest { job, score })
    }
}

/// A request scored under a variant the cache holds: its job and its score.
pub struct ScoredRequest<'v> {
    pub job: ScoreJob<&'v Variant>,
    pub score: Score,
}

impl ScoredRequest<'_> {
    /// The JSON answer, to write ([`Answer::write_json`]).
    pub fn answer(&self) -> Answer<'_> {
        self.job.answer(&self.score)
    }
}

//! Score requests as data: the JSON object of `taisim score --json` and of the Python
//! `taisim.score(dict)`, parsed, checked, scored and answered in one place.
//!
//! - `wire`: the request as it arrives ([`ScoreRequest`]), read by serde;
//! - `job`: the request checked into a [`ScoreJob`] (every field, the win, the other players);
//! - `answer`: the JSON answer ([`Answer`]), written without building a tree;
//! - `cache`: [`VariantCache`], for streams of requests that name variants by name or path;
//! - `error`: [`RequestError`], one kind per reason a request is refused.

mod answer;
mod cache;
mod error;
mod job;
mod wire;

pub use answer::Answer;
pub use cache::{ScoredRequest, VariantCache};
pub use error::RequestError;
pub use job::{Circumstances, ScoreJob};
pub use wire::{LiabilityFacts, OtherHand, ScoreRequest};

use crate::score;

/// Scores a JSON request and returns the JSON response (`total_tai`, `dealer_tai`,
/// `patterns`, and `settlement` when `base` and `per_tai` are given). An impossible request
/// is an error naming the problem.
pub fn score_json(text: &str) -> Result<String, RequestError> {
    let job = ScoreJob::from_json(text)?;
    let s = score(&job.input, &job.variant)?;
    Ok(job.answer(&s).to_json_string())
}

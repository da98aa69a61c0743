//! What a variant file says of where its patterns come from: the comment on (or just above)
//! each pattern's line cites the rule text's line (`# :53 平胡`, `# scoring:67`), and the
//! file's opening comment names the rule texts (`taiwan16-common.txt`). Read from the text
//! as written, for `taisim variant patterns`.

use super::extend::Resolved;
use crate::pattern::PatternId;

/// Where a file of a variant's chain sets a pattern, and the comment there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// The file (`builtin:NAME` or a path).
    pub origin: String,
    /// The 1-based line of `id = …`.
    pub line: usize,
    /// The comment at the end of that line, or else the comment lines just above it, joined;
    /// empty when there is none.
    pub note: String,
}

/// The comment of a line (`#` outside quotes), trimmed; `None` without one.
fn comment(line: &str) -> Option<&str> {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return Some(line[i + 1..].trim()),
            _ => {}
        }
    }
    None
}

/// Every `id = …` line of `[patterns]` in `text`: the id, its line and its note.
fn pattern_lines(text: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    // The comment lines just above the current line.
    let mut above: Vec<&str> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            inside = line.split('#').next().map(str::trim) == Some("[patterns]");
            above.clear();
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            above.push(c.trim());
            continue;
        }
        if inside {
            if let Some((key, _)) = line.split_once('=') {
                let id = key.trim().trim_matches('"').to_string();
                let note = match comment(line) {
                    Some(c) if !c.is_empty() => c.to_string(),
                    _ => above.join(" "),
                };
                out.push((id, i + 1, note));
            }
        }
        above.clear();
    }
    out
}

/// The rule texts a file's opening comment names: the words ending in `.txt` or `.md`.
fn sources_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(c) = line.trim().strip_prefix('#') else {
            break;
        };
        for word in c.split_whitespace() {
            let word = word.trim_matches(|c: char| "()[],.;:\"'".contains(c));
            if (word.ends_with(".txt") || word.ends_with(".md")) && !out.iter().any(|w| w == word) {
                out.push(word.to_string());
            }
        }
    }
    out
}

impl Resolved {
    /// Where the files of the chain set `pattern`, the file itself first and its furthest
    /// base last (a file that changes a pattern's tai without a comment still shows the
    /// base's citation after its own line); empty for a pattern no file sets.
    pub fn citations(&self, pattern: PatternId) -> Vec<Citation> {
        self.layers
            .iter()
            .rev()
            .filter_map(|layer| {
                pattern_lines(&layer.text)
                    .into_iter()
                    .find(|(id, _, _)| id == pattern.id())
                    .map(|(_, line, note)| Citation {
                        origin: layer.origin.clone(),
                        line,
                        note,
                    })
            })
            .collect()
    }

    /// The rule texts the opening comments of the chain's files name (`taiwan16-common.txt`,
    /// `shared/rules/README.md`), the furthest base's first.
    pub fn sources(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for layer in &self.layers {
            for s in sources_of(&layer.text) {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_line_cites_its_own_comment_or_the_lines_above() {
        let text = "# taiwan16: see taiwan16-common.txt and shared/rules/README.md.\n\
                    name = \"t\"\n\
                    [patterns]\n\
                    self_draw = 1                 # :28\n\
                    # :30 不求人; README: a concealed self-draw is 3 in all.\n\
                    concealed_self_draw = { tai = 3, excludes = [\"self_draw\"] }\n\
                    all_chows = 2\n\
                    half_flush = { tai = 4, excludes = [\"a#b\"] }  # :63\n";
        let lines = pattern_lines(text);
        assert_eq!(
            lines,
            [
                ("self_draw".to_string(), 4, ":28".to_string()),
                (
                    "concealed_self_draw".to_string(),
                    6,
                    ":30 不求人; README: a concealed self-draw is 3 in all.".to_string()
                ),
                ("all_chows".to_string(), 7, String::new()),
                ("half_flush".to_string(), 8, ":63".to_string()),
            ]
        );
        assert_eq!(
            sources_of(text),
            ["taiwan16-common.txt", "shared/rules/README.md"]
        );
    }
}

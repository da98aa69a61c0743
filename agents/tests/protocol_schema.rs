//! `docs/protocol.schema.json` describes what the table really sends: every message of many
//! deals of every shipped variant (each seat's events, the requests, a log's lines) is valid
//! against its definition, and messages with a field too many, a wrong tile or a missing
//! field are not. The validator below reads the subset of JSON Schema the file uses.

use std::sync::Arc;

use serde_json::{json, Value};
use taisim_agents::protocol::{end_event, start_event, step_events, write_request, Message};
use taisim_agents::{Agent, BuiltinAgent, GreedyAgent, RandomAgent};
use taisim_score::Variant;
use taisim_sim::{ActionList, Deal, DealContext, Wind};

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Whether `v` is valid against `s` (a schema node of `root`); the reason when it is not.
fn check(root: &Value, s: &Value, v: &Value) -> Result<(), String> {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local references only");
        return check(root, &root["$defs"][name], v).map_err(|e| format!("{name}: {e}"));
    }
    if let Some(alts) = s.get("oneOf").and_then(Value::as_array) {
        let ok: Vec<_> = alts.iter().filter(|a| check(root, a, v).is_ok()).collect();
        if ok.len() != 1 {
            let why: Vec<String> = alts
                .iter()
                .filter_map(|a| check(root, a, v).err())
                .collect();
            return Err(format!(
                "{} of oneOf match {v} ({})",
                ok.len(),
                why.join("; ")
            ));
        }
    }
    if let Some(alts) = s.get("anyOf").and_then(Value::as_array) {
        if !alts.iter().any(|a| check(root, a, v).is_ok()) {
            return Err(format!("no anyOf matches {v}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            return Err(format!("{v} is not {c}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            return Err(format!("{v} is not one of the enum"));
        }
    }
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            other => panic!("type {other} is not read here"),
        };
        if !ok {
            return Err(format!("{v} is not a {t}"));
        }
    }
    if let Some(min) = s.get("minimum").and_then(Value::as_i64) {
        if v.as_i64().is_some_and(|x| x < min) {
            return Err(format!("{v} < {min}"));
        }
    }
    if let (Some(min), Some(text)) = (s.get("minLength").and_then(Value::as_u64), v.as_str()) {
        if (text.chars().count() as u64) < min {
            return Err("too short".into());
        }
    }
    if let Some(items) = v.as_array() {
        if let Some(is) = s.get("items") {
            for x in items {
                check(root, is, x)?;
            }
        }
        if s.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| (items.len() as u64) < m)
            || s.get("maxItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| (items.len() as u64) > m)
        {
            return Err(format!("{v}: wrong number of items"));
        }
    }
    if let Some(o) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !o.contains_key(r.as_str().unwrap()) {
                return Err(format!("{r} is missing from {v}"));
            }
        }
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => check(root, ps, x).map_err(|e| format!("{k}: {e}"))?,
                None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Err(format!("{k} is not a field of this message"))
                }
                None => {}
            }
        }
    }
    Ok(())
}

fn valid(root: &Value, def: &str, line: &str) {
    let v: Value = serde_json::from_str(line).unwrap();
    if let Err(e) = check(root, &json!({"$ref": format!("#/$defs/{def}")}), &v) {
        panic!("{def}: {e}\n{line}");
    }
}

#[test]
fn every_message_of_every_variant_fits_the_schema() {
    let root = schema();
    let mut kinds = std::collections::BTreeSet::new();
    for name in Variant::names() {
        let variant = Arc::new(Variant::builtin(name).unwrap());
        for k in 0..40u64 {
            let context = DealContext {
                dealer: Wind::new((k % 4) as u8),
                ..DealContext::FIRST
            };
            let mut deal = Deal::new(variant.rules(), 500 + k, context).unwrap();
            let mut agents = [0, 1, 2, 3].map(|i| {
                if (i + k) % 2 == 0 {
                    BuiltinAgent::Greedy(GreedyAgent::new())
                } else {
                    BuiltinAgent::Random(RandomAgent::new())
                }
            });
            for s in Wind::ALL {
                agents[s as usize].reset(deal.seed(), s);
            }
            // A table sends the variant file's SHA-256 to the seats as well as to its logs.
            let sha256 = "ab12".repeat(16);
            let mut events = vec![start_event(&deal, name, Some(&sha256), Some((0, 1)))];
            let mut legal = ActionList::new();
            while let Some(seat) = deal.to_act() {
                let a = agents[seat as usize].act_in(&deal, seat, &mut legal);
                deal.legal_actions(&mut legal);
                let mut request = String::new();
                write_request(&mut request, 7, &deal, seat, &legal);
                valid(&root, "table_message", &request);
                valid(&root, "act", &request);
                let before = deal.clone();
                deal.play(a).unwrap();
                step_events(&before, a, &deal, &mut events);
            }
            let st = &variant.settlement();
            events.push(end_event(&deal, &variant, st.base, st.per_tai).unwrap());
            for e in &events {
                kinds.insert(e.kind());
                let log = Message {
                    deal: k,
                    seat: None,
                    event: e.clone(),
                };
                valid(&root, "log_message", &log.to_json());
                for s in Wind::ALL {
                    if let Some(seen) = e.seen_by(s) {
                        let m = Message {
                            deal: 3,
                            seat: Some(s),
                            event: seen,
                        };
                        valid(&root, "table_message", &m.to_json());
                    }
                }
            }
        }
    }
    assert!(kinds.len() >= 10, "{kinds:?}");
    valid(
        &root,
        "table_message",
        r#"{"type":"hello","protocol":1,"table":"taisim","version":"0.1.0","variant":"taiwan16"}"#,
    );
    valid(
        &root,
        "table_message",
        r#"{"type":"abort","deal":3,"seat":"N"}"#,
    );
    valid(
        &root,
        "bot_message",
        r#"{"type":"hello","protocol":1,"name":"random_bot"}"#,
    );
    valid(&root, "bot_message", r#"{"id":3}"#);
    valid(
        &root,
        "bot_message",
        r#"{"id":0,"deal":2,"seat":"E","note":"a bot's own field"}"#,
    );
}

#[test]
fn the_schema_refuses_what_the_table_never_sends() {
    let root = schema();
    let refused = |def: &str, line: &str| {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(
            check(&root, &json!({"$ref": format!("#/$defs/{def}")}), &v).is_err(),
            "{def} accepts {line}"
        );
    };
    refused(
        "table_message",
        r#"{"type":"discard","deal":1,"seat":"E","actor":"S","tile":"0m","ready":false}"#,
    );
    refused(
        "table_message",
        r#"{"type":"discard","deal":1,"seat":"E","actor":"S","tile":"5m"}"#,
    );
    refused(
        "table_message",
        r#"{"type":"discard","deal":1,"seat":"E","actor":"S","tile":"5m","ready":false,"extra":1}"#,
    );
    refused(
        "table_message",
        r#"{"type":"draw","deal":1,"actor":"S","left":3}"#,
    );
    refused(
        "log_message",
        r#"{"type":"draw","deal":1,"actor":"S","left":3}"#,
    );
    refused(
        "table_message",
        r#"{"type":"act","deal":1,"seat":"E","step":1,"legal":[]}"#,
    );
    refused("bot_message", r#"{"type":"hello","protocol":2,"name":"x"}"#);
    refused("bot_message", r#"{"choice":3}"#);
}

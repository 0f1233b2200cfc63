use super::*;
use crate::json::partial::{NoObserver, Parser};
use serde_json::json;

fn schema(s: Value) -> Arc<EarlySchema> {
    schema_in(crate::validator::draft::Draft::Draft7, s)
}

fn schema_in(draft: crate::validator::draft::Draft, s: Value) -> Arc<EarlySchema> {
    let none = std::collections::BTreeMap::new();
    let options = crate::validator::Options { draft, formats: true, refuse_unknown_formats: false, resources: &none, custom_formats: &std::collections::BTreeMap::new() };
    Arc::new(EarlySchema::new(Arc::new(Validator::new(&s, &options).unwrap())))
}

/// Feeds `doc` one byte at a time; returns (offset, path, keyword) of each early violation.
fn early(s: &Arc<EarlySchema>, doc: &str) -> Vec<(usize, String, String)> {
    let mut parser = Parser::new(usize::MAX, 1000, false);
    let mut checker = Checker::new(Arc::clone(s));
    for b in doc.as_bytes() {
        parser.push(std::slice::from_ref(b), &mut checker);
    }
    let offsets = checker.offsets().to_vec();
    checker.into_violations().into_iter().zip(offsets).map(|(v, o)| (o, v.path, v.keyword)).collect()
}

#[test]
fn each_class_is_reported_at_the_byte_it_becomes_certain() {
    let s = schema(json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "n": {"type": "integer", "minimum": 0},
            "s": {"enum": ["low", "high"]},
            "t": {"maxLength": 3},
            "a": {"maxItems": 1, "items": {"type": "string"}},
            "o": {"type": "object", "required": ["x"]}
        }
    }));
    // wrong type at the first byte of the value
    let doc = r#"{"n": "x"}"#;
    assert_eq!(early(&s, doc), vec![(6, "$.n".into(), "type".into())]);
    // minimum once the number is complete (the delimiter after it)
    assert_eq!(early(&s, r#"{"n": -5}"#), vec![(8, "$.n".into(), "minimum".into())]);
    // enum: at the first character no value starts with
    assert_eq!(early(&s, r#"{"s": "hx"}"#), vec![(8, "$.s".into(), "enum".into())]);
    // maxLength: at the character past the limit
    assert_eq!(early(&s, r#"{"t": "abcd"}"#), vec![(10, "$.t".into(), "maxLength".into())]);
    // maxItems: at the first byte of the item past the limit
    assert_eq!(early(&s, r#"{"a": ["x", "y"]}"#), vec![(12, "$.a".into(), "maxItems".into())]);
    // unknown key under additionalProperties: false, when the key is complete
    assert_eq!(early(&s, r#"{"zz": 1}"#), vec![(4, "$".into(), "additionalProperties".into())]);
    // required, once the object closes
    assert_eq!(early(&s, r#"{"o": {"y": 1}}"#), vec![(13, "$.o".into(), "required".into())]);
}

#[test]
fn any_of_reports_only_when_no_branch_remains() {
    let s = schema(json!({"properties": {"v": {"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "integer"}]}}}));
    assert!(early(&s, r#"{"v": 3}"#).is_empty());
    assert!(early(&s, r#"{"v": "a"}"#).is_empty());
    assert_eq!(early(&s, r#"{"v": true}"#).len(), 1);
    // Each branch failed on its enum or its type alone: one violation of the disjunction.
    assert_eq!(early(&s, r#"{"v": "b"}"#)[0].2, "anyOf");
}

#[test]
fn refs_are_followed() {
    let s = schema(json!({"definitions": {"sev": {"enum": ["low", "high"]}}, "properties": {"s": {"$ref": "#/definitions/sev"}}}));
    assert_eq!(early(&s, r#"{"s": "x"}"#), vec![(7, "$.s".into(), "enum".into())]);
}

#[test]
fn valid_documents_never_report_on_any_prefix() {
    let s = schema(json!({
        "type": "object", "additionalProperties": false, "required": ["a"],
        "properties": {
            "a": {"type": "array", "maxItems": 3, "items": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "object", "properties": {"k": {"const": "v"}}}]}},
            "b": {"oneOf": [{"type": "number", "multipleOf": 2}, {"type": "null"}]}
        }
    }));
    for doc in [r#"{"a": ["abc", {"k": "v"}, "é😀"], "b": 4}"#, r#"{"b": null, "a": []}"#] {
        assert!(early(&s, doc).is_empty(), "{doc}");
        let mut p = Parser::new(usize::MAX, 100, false);
        p.push(doc.as_bytes(), &mut NoObserver);
    }
}

#[test]
fn more_classes_at_their_bytes() {
    let s = schema(json!({
        "properties": {
            "p": {"maxProperties": 1},
            "c": {"const": "v1"},
            "m": {"minItems": 2},
            "q": {"minProperties": 1},
            "i": {"type": "integer"},
            "k": {"multipleOf": 5}
        }
    }));
    // maxProperties: when the second distinct key is complete
    assert_eq!(early(&s, r#"{"p": {"a": 1, "b": 2}}"#), vec![(17, "$.p".into(), "maxProperties".into())]);
    // const: at the first character that departs from it
    assert_eq!(early(&s, r#"{"c": "v2"}"#), vec![(8, "$.c".into(), "const".into())]);
    // minItems and minProperties: when the container closes
    assert_eq!(early(&s, r#"{"m": [1]}"#), vec![(8, "$.m".into(), "minItems".into())]);
    assert_eq!(early(&s, r#"{"q": {}}"#), vec![(7, "$.q".into(), "minProperties".into())]);
    // integer and multipleOf: once the number is complete
    assert_eq!(early(&s, r#"{"i": 1.5}"#), vec![(9, "$.i".into(), "type".into())]);
    assert_eq!(early(&s, r#"{"k": 12 }"#), vec![(8, "$.k".into(), "multipleOf".into())]);
    // a number that may still grow is not judged: "1" could become "10"
    assert!(early(&s, r#"{"k": 1"#).is_empty());
}

#[test]
fn draft7_ignores_keywords_beside_ref() {
    let s = schema(json!({"definitions": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/s", "type": "integer"}}}));
    assert!(early(&s, r#"{"a": "text"}"#).is_empty());
}

#[test]
fn property_name_patterns_are_read_as_ecma_262() {
    // ECMA-262's \s includes U+FEFF and its \d is ASCII only: a name the validator matches is not
    // reported as additional, and one it does not match is.
    let s = schema(json!({"patternProperties": {"^\\s$": {}, "^\\d+$": {}}, "additionalProperties": false}));
    assert!(early(&s, "{\"\u{FEFF}\": 1}").is_empty());
    assert!(early(&s, r#"{"42": 1}"#).is_empty());
    assert_eq!(early(&s, "{\"\u{0663}\": 1}"), vec![(4, "$".into(), "additionalProperties".into())]);
}

#[test]
fn containers_checked_through_their_children_still_report_at_their_close() {
    // `items` and each item are shallow (properties, required, additionalProperties: false): a
    // closed item is not validated again, but what its children or its own `required` break is
    // reported as early as before.
    let s = schema(json!({
        "type": "object",
        "properties": {
            "list": {"type": "array", "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["id"],
                "properties": {"id": {"type": "integer"}, "tag": {"type": "string", "pattern": "^[a-z]+$"}, "deep": {"type": "object", "properties": {"n": {"minimum": 1}}}}
            }}
        }
    }));
    let list = s.nodes.iter().filter(|n| n.shallow).count();
    assert_eq!(list, 4, "the root, the list, its items and `deep` are shallow");
    assert_eq!(early(&s, r#"{"list": [{"id": 1}, {"id": 2.5}]}"#), vec![(31, "$.list[1].id".into(), "type".into())]);
    assert_eq!(early(&s, r#"{"list": [{"id": 1, "tag": "A"}]}"#), vec![(29, "$.list[0].tag".into(), "pattern".into())]);
    assert_eq!(early(&s, r#"{"list": [{"id": 1}, {"tag": "a"}]}"#), vec![(32, "$.list[1]".into(), "required".into())]);
    assert_eq!(early(&s, r#"{"list": [{"id": 1, "deep": {"n": 0}}]}"#), vec![(35, "$.list[0].deep.n".into(), "minimum".into())]);
    assert_eq!(early(&s, r#"{"list": [{"id": 1, "tag": "ok", "deep": {"n": 3}}, {"id": 7}]}"#), vec![]);
}

/// The branch of a failed disjunction the stream reports is the one the final error shows: both
/// rank branches by their errors (`validator::rank`). Here branch 0 has one error (an
/// `additionalProperties` naming three properties, three violations) and branch 1 two
/// (`required`, twice): counting violations the stream would pick branch 1.
#[test]
fn the_stream_picks_the_branch_the_final_error_shows() {
    // Below the root: the root's complete value is left to the final validation.
    let s = schema(json!({"properties": {"v": {"anyOf": [
        {"type": "object", "additionalProperties": false, "minProperties": 0},
        {"type": "object", "required": ["p", "q"]}
    ]}}}));
    let doc = r#"{"v": {"a": "1", "b": "2", "c": "3"}}"#;
    let mut parser = Parser::new(usize::MAX, 1000, false);
    let mut checker = Checker::new(Arc::clone(&s));
    for b in doc.as_bytes() {
        parser.push(std::slice::from_ref(b), &mut checker);
    }
    let streamed = checker.into_violations();
    assert!(!streamed.is_empty());
    let value: Value = serde_json::from_str(doc).unwrap();
    let errors = s.validator.errors(&value);
    let final_violations = violation::from_errors(errors, &value, RECEIVED_CAP);
    let branch = |vs: &[Violation]| vs.iter().map(|v| (v.branch.as_ref().map(|b| b.index), v.keyword.clone())).collect::<Vec<_>>();
    assert_eq!(branch(&final_violations), vec![(Some(0), "additionalProperties".to_string()); 3]);
    assert_eq!(branch(&streamed), branch(&final_violations));
}

/// Whether `doc`, fed one byte at a time, ends settled (see `Checker::settled_valid`).
fn settled(s: &Arc<EarlySchema>, doc: &str) -> bool {
    settled_with(Checker::new(Arc::clone(s)), doc).0
}

/// `settled` by `checker`, with the violations it reported.
fn settled_with(mut checker: Checker, doc: &str) -> (bool, Vec<Violation>) {
    let mut parser = Parser::new(usize::MAX, 1000, false);
    for b in doc.as_bytes() {
        parser.push(std::slice::from_ref(b), &mut checker);
    }
    parser.end(&mut checker);
    (checker.settled_valid(), checker.into_violations())
}

#[test]
fn nulls_read_as_absent_settle_unless_a_violation_was_left_out_for_them() {
    let s = schema(json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["a"],
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": ["string", "null"]}}
    }));
    let nulls = |doc: &str| settled_with(Checker::new(Arc::clone(&s)).with_nulls_as_absent(), doc);
    // Nothing left out: the value as written is valid, as without the option.
    assert_eq!(nulls(r#"{"a": 1, "b": "x"}"#), (true, vec![]));
    assert_eq!(nulls(r#"{"a": 1, "c": null}"#), (true, vec![]));
    // The null of `b` fails its type, left out since removing it repairs that: not settled.
    assert!(!settled(&s, r#"{"a": 1, "b": null}"#));
    assert_eq!(nulls(r#"{"a": 1, "b": null}"#), (false, vec![]));
    // Nor is a value with a violation no removal repairs.
    let (settled, found) = nulls(r#"{"a": "1", "b": null}"#);
    assert!(!settled);
    assert_eq!(found.iter().map(|v| v.path.as_str()).collect::<Vec<_>>(), ["$.a"]);
}

#[test]
fn a_root_its_children_decide_needs_no_validation_at_the_end() {
    let shallow = schema(json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["a"],
        "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"type": "array", "items": {"pattern": "^x"}}}
    }));
    assert!(settled(&shallow, r#"{"a": 1, "b": ["xy"]}"#));
    // Found as the children closed, or at the root's required names: validated at the end.
    assert!(!settled(&shallow, r#"{"a": -1}"#));
    assert!(!settled(&shallow, r#"{"a": 1, "b": ["y"]}"#));
    assert!(!settled(&shallow, r#"{"b": []}"#));
    // A size of the root's own, counted as it closes.
    let counted = schema(json!({"type": "object", "minProperties": 2, "properties": {"a": {}}}));
    assert!(settled(&counted, r#"{"a": 1, "b": 2}"#));
    assert!(!settled(&counted, r#"{"a": 1}"#));
    // Members under patterns, and the others under `additionalProperties`.
    let patterned = schema(json!({"type": "object", "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": {"type": "string"}}));
    assert!(settled(&patterned, r#"{"x-a": 1, "b": "c"}"#));
    assert!(!settled(&patterned, r#"{"x-a": "1"}"#));
    assert!(!settled(&patterned, r#"{"b": 2}"#));
    // A keyword of the root's own that its children do not decide.
    let named = schema(json!({"type": "object", "propertyNames": {"maxLength": 3}}));
    assert!(!settled(&named, r#"{"a": 1}"#));
    // A union at the root.
    let union = schema(json!({"anyOf": [{"type": "object"}, {"type": "array"}]}));
    assert!(!settled(&union, "{}"));
}

#[test]
fn scalars_read_without_a_frame_are_judged_as_they_close() {
    let s = schema(json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "tags": {"type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}, "uniqueItems": true},
            "ok": {"type": "boolean"}
        }
    }));
    assert_eq!(early(&s, r#"{"ok": true, "tags": ["x", 1, 2, null]}"#).len(), 1);
    assert!(early(&s, r#"{"ok": false, "tags": ["x", 1, 2]}"#).is_empty());
    // An item past the prefix that is no integer, once it is complete; a repeated item, at the
    // array's close; an unknown name beside known ones, at its key.
    assert_eq!(early(&s, r#"{"tags": ["x", 1, 2.5]}"#), vec![(21, "$.tags[2]".into(), "type".into())]);
    assert_eq!(early(&s, r#"{"tags": ["x", 1, 1]}"#), vec![(19, "$.tags".into(), "uniqueItems".into())]);
    assert_eq!(early(&s, r#"{"ok": true, "no": 1}"#), vec![(16, "$".into(), "additionalProperties".into())]);
}

#[test]
fn dynamic_references_are_followed_in_the_scope_that_reached_them() {
    use crate::validator::draft::Draft;
    // A tree whose nodes the root extends: within the tree's own resource an item of `children`
    // is a tree node, but reached from the root the dynamic scope sends it to the root, whose
    // `required` then applies to every node.
    let dynamic = schema_in(Draft::Draft202012, json!({
        "$id": "https://example.com/named-tree",
        "$dynamicAnchor": "node",
        "$ref": "tree",
        "required": ["name"],
        "$defs": {"tree": {
            "$id": "tree",
            "$dynamicAnchor": "node",
            "type": "object",
            "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}
        }}
    }));
    let recursive = schema_in(Draft::Draft201909, json!({
        "$id": "https://example.com/named-tree",
        "$recursiveAnchor": true,
        "$ref": "tree",
        "required": ["name"],
        "$defs": {"tree": {
            "$id": "tree",
            "$recursiveAnchor": true,
            "type": "object",
            "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$recursiveRef": "#"}}}
        }}
    }));
    for s in [&dynamic, &recursive] {
        // A nameless child, as it closes; a name that is no string, as it begins.
        let doc = r#"{"name": "a", "children": [{"children": []}]}"#;
        let close = doc.find("]}").unwrap() + 1;
        assert_eq!(early(s, doc), vec![(close, "$.children[0]".into(), "required".into())]);
        let doc = r#"{"name": "a", "children": [{"name": 1}]}"#;
        assert_eq!(early(s, doc), vec![(doc.find('1').unwrap(), "$.children[0].name".into(), "type".into())]);
        // Every node was judged as it closed: the end of the stream has nothing left to validate.
        assert!(settled(s, r#"{"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}"#));
    }
}

#[test]
fn unevaluated_properties_false_is_told_at_each_key_where_the_schema_names_what_it_lets_in() {
    use crate::validator::draft::Draft;
    // An intersection as generators write it: the parts' names, and no other.
    let s = schema_in(Draft::Draft202012, json!({
        "allOf": [{"$ref": "#/$defs/a"}, {"properties": {"b": {"type": "integer"}}, "patternProperties": {"^x-": {}}}],
        "unevaluatedProperties": false,
        "$defs": {"a": {"properties": {"a": {"type": "string"}}, "required": ["a"]}}
    }));
    assert!(early(&s, r#"{"a": "x", "b": 1, "x-y": null}"#).is_empty());
    let plain = schema_in(Draft::Draft202012, json!({
        "allOf": [{"$ref": "#/$defs/a"}, {"properties": {"b": {"type": "integer"}}}],
        "unevaluatedProperties": false,
        "$defs": {"a": {"properties": {"a": {"type": "string"}}, "required": ["a"]}}
    }));
    // Every member judged as it closed, every name at its key: nothing is left for the end.
    assert!(settled(&plain, r#"{"a": "x", "b": 1}"#));
    assert!(!settled(&plain, r#"{"a": "x", "b": 1, "c": 2}"#));
    let doc = r#"{"a": "x", "c": 1}"#;
    assert_eq!(early(&s, doc), vec![(doc.find(r#""c""#).unwrap() + 2, "$".into(), "unevaluatedProperties".into())]);
    // A part that may evaluate names otherwise (a union): the names are not known from the
    // schema alone, and the end of the stream decides.
    let union = schema_in(Draft::Draft202012, json!({
        "allOf": [{"properties": {"a": {}}}, {"anyOf": [{"properties": {"c": {}}}, {"required": ["d"]}]}],
        "unevaluatedProperties": false
    }));
    assert!(early(&union, r#"{"a": 1, "c": 1}"#).is_empty());
    assert!(!settled(&union, r#"{"a": 1, "c": 1}"#));
}

#[test]
fn an_optional_model_constrains_its_members_as_they_arrive() {
    // A nullable object as generators write it: once the value is an object, the null branch is
    // out, and the model's constraints apply to each member as it comes.
    let s = schema(json!({
        "properties": {"m": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}]}},
        "$defs": {"M": {"properties": {"a": {"type": "integer"}}, "additionalProperties": false}}
    }));
    let doc = r#"{"m": {"a": "x", "b": 1}}"#;
    assert_eq!(early(&s, doc)[0], (doc.find('x').unwrap() - 1, "$.m.a".into(), "type".into()));
    assert!(early(&s, r#"{"m": {"a": 1}}"#).is_empty());
    assert!(early(&s, r#"{"m": null}"#).is_empty());
}

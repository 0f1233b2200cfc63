//! Drafts as schemas are written: read from the keywords when there is no `$schema`, `$defs` a
//! reference container in every draft, dialects named by other URIs, the `draft` option for a
//! `$schema` the library does not know; formats asserted in every draft, generators' formats,
//! unknown formats beside a `pattern`; generators' vocabulary.

use output_contract::{Contract, Dialect, Draft, DraftReason, Options, SchemaErrorKind};
use serde_json::{json, Value};

fn compile(schema: &Value) -> Contract {
    Contract::compile(schema, &Options::default()).unwrap_or_else(|e| panic!("{schema} does not compile: {e}"))
}

fn refused(schema: &Value, options: &Options) -> output_contract::SchemaError {
    match Contract::compile(schema, options) {
        Ok(c) => panic!("{schema} compiled as {:?}", c.draft()),
        Err(e) => e,
    }
}

/// `model_json_schema()` of a Pydantic v2 model with a nested model: no `$schema`, `$defs`,
/// `title` on every property.
fn pydantic() -> Value {
    json!({
        "$defs": {
            "Address": {
                "properties": {"street": {"title": "Street", "type": "string"}, "zip": {"title": "Zip", "type": "string"}},
                "required": ["street", "zip"], "title": "Address", "type": "object"
            }
        },
        "properties": {
            "name": {"title": "Name", "type": "string"},
            "age": {"default": 0, "title": "Age", "type": "integer", "examples": [30]},
            "address": {"$ref": "#/$defs/Address"},
            "tags": {"items": {"type": "string"}, "title": "Tags", "type": "array"}
        },
        "required": ["name", "address"], "title": "Person", "type": "object", "x-generated-by": "pydantic"
    })
}

#[test]
fn a_schema_without_schema_is_read_from_its_keywords() {
    let c = compile(&pydantic());
    assert_eq!(c.draft(), Draft::Draft202012);
    assert_eq!(c.draft_reason(), &DraftReason::Inferred { keyword: "$defs", pointer: String::new() });
    assert!(c.draft_reason().message(c.draft()).contains("\"$defs\""), "{}", c.draft_reason().message(c.draft()));
    assert!(c.is_valid(&json!({"name": "a", "address": {"street": "s", "zip": "1"}})));
    assert!(!c.is_valid(&json!({"name": "a", "address": {"street": "s"}})));

    // The OpenAI structured-output documentation's shape.
    let openai = json!({
        "type": "object",
        "properties": {"steps": {"type": "array", "items": {"$ref": "#/$defs/step"}}, "final_answer": {"type": "string"}},
        "$defs": {"step": {"type": "object", "properties": {"explanation": {"type": "string"}, "output": {"type": "string"}}, "required": ["explanation", "output"], "additionalProperties": false}},
        "required": ["steps", "final_answer"], "additionalProperties": false
    });
    let c = compile(&openai);
    assert_eq!(c.draft(), Draft::Draft202012);
    assert!(!c.is_valid(&json!({"steps": [{"explanation": "e"}], "final_answer": "x"})));

    // A keyword deep inside, in document order.
    let c = compile(&json!({"type": "object", "properties": {"a": {"type": "array", "prefixItems": [{"type": "string"}]}}}));
    assert_eq!(c.draft_reason(), &DraftReason::Inferred { keyword: "prefixItems", pointer: "/properties/a".into() });
    assert!(!c.is_valid(&json!({"a": [1]})));
    for (schema, keyword) in [
        (json!({"unevaluatedProperties": false}), "unevaluatedProperties"),
        (json!({"dependentRequired": {"a": ["b"]}}), "dependentRequired"),
        (json!({"dependentSchemas": {"a": {}}}), "dependentSchemas"),
        (json!({"$anchor": "x"}), "$anchor"),
        (json!({"$dynamicAnchor": "x", "$dynamicRef": "#x"}), "$dynamicRef"),
    ] {
        let c = compile(&schema);
        assert_eq!((c.draft(), c.draft_reason()), (Draft::Draft202012, &DraftReason::Inferred { keyword, pointer: String::new() }), "{schema}");
    }

    // Nothing of a later draft: Draft 7 as before.
    let c = compile(&json!({"type": "object", "definitions": {"a": {}}, "properties": {"a": {"$ref": "#/definitions/a"}}}));
    assert_eq!((c.draft(), c.draft_reason()), (Draft::Draft7, &DraftReason::Default));
    // `$defs` beside a keyword 2020-12 dropped: Draft 7 reads both (`$defs` holds targets in every draft).
    let c = compile(&json!({"$defs": {"a": {"type": "string"}}, "dependencies": {"a": ["b"]}, "properties": {"a": {"$ref": "#/$defs/a"}}}));
    assert_eq!(c.draft(), Draft::Draft7);
    assert!(!c.is_valid(&json!({"a": 1})));
    assert!(!c.is_valid(&json!({"a": "x"})));

    // The option and `$schema` decide before the keywords.
    let c = Contract::compile(&pydantic(), &Options { draft: Some(Draft::Draft7), ..Options::default() }).unwrap();
    assert_eq!((c.draft(), c.draft_reason()), (Draft::Draft7, &DraftReason::Option));
    let mut with_schema = pydantic();
    with_schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let c = compile(&with_schema);
    assert_eq!((c.draft(), c.draft_reason()), (Draft::Draft7, &DraftReason::Schema));
    // A subschema with its own `$schema` is its own dialect: its keywords say nothing of the root's.
    let c = compile(&json!({"properties": {"a": {"$schema": "https://json-schema.org/draft/2020-12/schema", "prefixItems": []}}}));
    assert_eq!(c.draft(), Draft::Draft7);
}

#[test]
fn a_schema_mixing_drafts_is_refused_naming_both_keywords() {
    // Not strict: read as Draft 2020-12 (whose meta-schema refuses an array `items`).
    let cases = [
        (json!({"type": "array", "prefixItems": [{"type": "string"}], "items": [{"type": "number"}]}), "prefixItems", "\"items\" as an array", "/items", false),
        (json!({"$defs": {"a": {"$dynamicRef": "#x"}}, "properties": {"b": {"$recursiveRef": "#"}}}), "$dynamicRef", "\"$recursiveRef\"", "/properties/b/$recursiveRef", true),
        (json!({"dependentRequired": {"a": ["b"]}, "dependencies": {"c": ["d"]}}), "dependentRequired", "\"dependencies\"", "/dependencies", true),
    ];
    for (schema, later, earlier, pointer, loose) in cases {
        let e = refused(&schema, &Options::default());
        let issue = &e.issues[0];
        assert_eq!(issue.kind, SchemaErrorKind::UnknownKeyword, "{schema}");
        assert_eq!(issue.pointer, pointer, "{schema}");
        assert!(issue.message.contains(&format!("{later:?}")) && issue.message.contains(earlier), "{}", issue.message);
        assert!(issue.message.contains("add \"$schema\""), "{}", issue.message);
        if loose {
            let c = Contract::compile(&schema, &Options { strict: false, ..Options::default() }).unwrap();
            assert_eq!(c.draft(), Draft::Draft202012);
        }
    }
}

#[test]
fn defs_and_definitions_hold_reference_targets_in_every_draft() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/definitions/B"}},
        "$defs": {"A": {"type": "string"}},
        "definitions": {"B": {"type": "integer"}}
    });
    for draft in [Draft::Draft4, Draft::Draft6, Draft::Draft7, Draft::Draft201909, Draft::Draft202012] {
        let c = Contract::compile(&schema, &Options { draft: Some(draft), ..Options::default() }).unwrap();
        assert!(c.is_valid(&json!({"a": "x", "b": 1})), "{draft:?}");
        assert!(!c.is_valid(&json!({"a": 1, "b": 1})), "{draft:?}");
        assert!(!c.is_valid(&json!({"a": "x", "b": "y"})), "{draft:?}");
        // Strict mode checks what `$defs` holds.
        let typo = json!({"$defs": {"A": {"type": "string", "maxLenght": 3}}, "$ref": "#/$defs/A"});
        let e = refused(&typo, &Options { draft: Some(draft), ..Options::default() });
        assert_eq!(e.issues[0].pointer, "/$defs/A/maxLenght", "{draft:?}");
    }
}

#[test]
fn dialects_resolve_to_their_draft() {
    let latest = json!({"$schema": "http://json-schema.org/schema#", "type": "object", "$defs": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/s"}}});
    let c = compile(&latest);
    assert_eq!(c.draft(), Draft::Draft202012);
    assert_eq!(c.draft_reason(), &DraftReason::Dialect { uri: "http://json-schema.org/schema#".into(), dialect: Dialect::Latest });
    assert!(!c.is_valid(&json!({"a": 1})));

    for uri in [
        "https://spec.openapis.org/oas/3.1/dialect/base",
        "https://spec.openapis.org/oas/3.1/dialect/2024-10-25",
        "https://spec.openapis.org/oas/3.1/schema-base",
        "https://spec.openapis.org/oas/3.1/schema-base/2022-10-07",
    ] {
        let schema = json!({
            "$schema": uri, "type": "object",
            "properties": {"pet": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}], "discriminator": {"propertyName": "kind"}}, "n": {"type": "integer", "example": 3, "xml": {"name": "N"}}},
            "externalDocs": {"url": "https://example.com"},
            "$defs": {"Cat": {"type": "object", "properties": {"kind": {"const": "cat"}}, "required": ["kind"]}, "Dog": {"type": "object", "properties": {"kind": {"const": "dog"}}, "required": ["kind"]}}
        });
        let c = compile(&schema);
        assert_eq!(c.draft(), Draft::Draft202012, "{uri}");
        assert!(matches!(c.draft_reason(), DraftReason::Dialect { dialect: Dialect::OpenApi31, .. }), "{uri}");
        assert!(c.is_valid(&json!({"pet": {"kind": "cat"}, "n": 1})), "{uri}");
        assert!(!c.is_valid(&json!({"pet": {"kind": "cow"}, "n": 1})), "{uri}");
    }
    // OpenAPI's keywords are OpenAPI's: elsewhere strict mode still refuses `xml`.
    let e = refused(&json!({"type": "object", "xml": {"name": "N"}}), &Options::default());
    assert_eq!(e.issues[0].pointer, "/xml");
    assert!(Dialect::from_uri("https://spec.openapis.org/oas/3.0/schema").is_none());
    assert!(Dialect::from_uri("https://spec.openapis.org/oas/3.1/dialect/base2").is_none());
}

#[test]
fn an_unknown_schema_takes_the_draft_option_and_draft_3_is_refused() {
    let schema = json!({"$schema": "https://example.com/my-meta", "type": "object", "prefixItems": [{"type": "string"}]});
    let e = refused(&schema, &Options::default());
    assert_eq!(e.issues[0].kind, SchemaErrorKind::UnknownDraft);
    assert!(e.issues[0].message.contains("draft option"), "{}", e.issues[0].message);
    let c = Contract::compile(&schema, &Options { draft: Some(Draft::Draft202012), ..Options::default() }).unwrap();
    assert_eq!(c.draft(), Draft::Draft202012);
    assert_eq!(c.draft_reason(), &DraftReason::OptionForUnknownSchema { uri: "https://example.com/my-meta".into() });
    assert!(!c.is_valid(&json!([1])));

    let draft3 = json!({"$schema": "http://json-schema.org/draft-03/schema#", "type": "object", "properties": {"a": {"required": true}}});
    for options in [Options::default(), Options { draft: Some(Draft::Draft202012), ..Options::default() }] {
        let e = refused(&draft3, &options);
        assert_eq!(e.issues[0].kind, SchemaErrorKind::UnknownDraft);
        assert!(e.issues[0].message.contains("Draft 3, which the library does not support"), "{}", e.issues[0].message);
    }
}

#[test]
fn every_format_is_asserted_in_every_draft() {
    // Zod 4's `z.toJSONSchema(…, { target: 'draft-7' })`: a Draft 7 `$schema`, formats with patterns.
    let zod = json!({
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {
            "id": {"type": "string", "format": "uuid", "pattern": "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$"},
            "phone": {"type": "string", "format": "e164", "pattern": "^\\+[1-9]\\d{6,14}$"},
            "token": {"type": "string", "format": "jwt"},
            "x": {"type": "string", "format": "xid", "pattern": "^[0-9a-vA-V]{20}$"},
            "s": {"type": "string", "format": "includes", "pattern": "x"}
        }
    });
    let c = compile(&zod);
    assert_eq!(c.draft(), Draft::Draft7);
    assert!(c.is_valid(&json!({"id": "123e4567-e89b-12d3-a456-426614174000", "phone": "+14155552671", "x": "9m4e2mr0ui3e8a215n4g", "s": "axb"})));
    assert!(!c.is_valid(&json!({"phone": "+0123"})));
    assert!(!c.is_valid(&json!({"token": "not.a.jwt"})));
    assert!(!c.is_valid(&json!({"x": "!"})));
    assert!(!c.is_valid(&json!({"s": "y"})));
    // Without the pattern, only the format checks (uuid under Draft 4 too).
    for draft in [Draft::Draft4, Draft::Draft6, Draft::Draft7] {
        let c = Contract::compile(&json!({"format": "uuid"}), &Options { draft: Some(draft), ..Options::default() }).unwrap();
        assert!(!c.is_valid(&json!("nope")), "{draft:?}");
        let c = Contract::compile(&json!({"format": "duration"}), &Options { draft: Some(draft), ..Options::default() }).unwrap();
        assert!(!c.is_valid(&json!("1 day")), "{draft:?}");
    }
    let generated = [
        ("base64", "aGk=", "aGk"), ("base64url", "aGk", "aG+k"), ("e164", "+4930123456", "030123456"),
        ("cuid", "cjld2cjxh0000qzrmn831i7rn", "jld2cjxh"), ("cuid2", "tz4a98xxat96iws9zmbrgj3a", "Tz4a"),
        ("ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FAU"), ("nanoid", "V1StGXR8_Z5jdHi6B-myT", "V1StGXR8"),
        ("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2ln", "a.b.c"),
        ("cidrv4", "10.0.0.0/8", "10.0.0.0/33"), ("cidrv6", "2001:db8::/32", "2001:db8::"),
        ("mac", "00:1a:2b:3c:4d:5e", "00:1a:2b:3c:4d"), ("hex", "c0ffee", "coffee"), ("emoji", "👋🫡", "hi"),
    ];
    for (format, valid, invalid) in generated {
        let c = Contract::compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#", "format": format}), &Options::default()).unwrap();
        assert!(c.is_valid(&json!(valid)), "{format}: {valid}");
        assert!(!c.is_valid(&json!(invalid)), "{format}: {invalid}");
        assert!(c.is_valid(&json!(1)), "{format}: a number is not a string");
    }
}

#[test]
fn an_unknown_format_beside_a_pattern_is_an_annotation() {
    let c = compile(&json!({"type": "string", "format": "sha256_hex", "pattern": "^[0-9a-f]{64}$"}));
    assert!(c.is_valid(&json!("a".repeat(64))));
    assert!(!c.is_valid(&json!("a")));
    let e = refused(&json!({"type": "string", "format": "colour"}), &Options::default());
    let message = &e.issues[0].message;
    assert_eq!(e.issues[0].kind, SchemaErrorKind::UnknownFormat);
    let (formats, strict) = (message.find("formats: { colour: … }"), message.find("strict: false"));
    assert!(formats.is_some() && strict.is_some() && formats < strict, "{message}");
}

#[test]
fn typebox_ids_and_refs_resolve() {
    // TypeBox's `Type.Object(…, { $id })` and `Type.Ref(…)`: `$id`s on subschemas, `$ref` by id.
    let schema = json!({
        "$id": "https://example.com/schemas/order/1.0.0",
        "type": "object",
        "properties": {
            "customer": {"$ref": "Customer"},
            "items": {"type": "array", "items": {"$ref": "https://example.com/schemas/Item"}}
        },
        "required": ["customer", "items"],
        "$defs": {
            "customer": {"$id": "Customer", "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            "item": {"$id": "https://example.com/schemas/Item", "type": "object", "properties": {"sku": {"type": "string", "pattern": "^[A-Z]+$"}}, "required": ["sku"]}
        }
    });
    let c = compile(&schema);
    assert!(c.is_valid(&json!({"customer": {"name": "a"}, "items": [{"sku": "AB"}]})));
    assert!(!c.is_valid(&json!({"customer": {}, "items": []})));
    assert!(!c.is_valid(&json!({"customer": {"name": "a"}, "items": [{"sku": "ab"}]})));
}

/// A discriminated union as Pydantic writes it (`discriminator` beside `oneOf`, `mapping` to the
/// branches' `$ref`s) and as Zod writes it (the tag a `const` in each branch, `anyOf`).
fn unions() -> Vec<Value> {
    let defs = json!({
        "Cat": {"type": "object", "properties": {"kind": {"const": "cat", "title": "Kind"}, "lives": {"type": "integer", "maximum": 9}}, "required": ["kind", "lives"], "title": "Cat"},
        "Dog": {"type": "object", "properties": {"kind": {"const": "dog", "title": "Kind"}, "good": {"type": "boolean"}}, "required": ["kind", "good"], "title": "Dog"}
    });
    let pydantic = json!({
        "$defs": defs,
        "type": "object", "title": "Owner",
        "properties": {"pet": {
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}},
            "title": "Pet"
        }},
        "required": ["pet"]
    });
    let zod = json!({
        "type": "object",
        "properties": {"pet": {
            "anyOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "cat"}, "lives": {"type": "integer", "maximum": 9}}, "required": ["kind", "lives"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"type": "string", "const": "dog"}, "good": {"type": "boolean"}}, "required": ["kind", "good"], "additionalProperties": false}
            ],
            "discriminator": {"propertyName": "kind"}
        }},
        "required": ["pet"]
    });
    vec![pydantic, zod]
}

#[test]
fn a_discriminator_names_the_branch_reported() {
    use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions};
    for schema in unions() {
        let c = compile(&schema);
        assert!(c.is_valid(&json!({"pet": {"kind": "dog", "good": true}})));
        // A dog with a cat's member: without the tag, the cat branch (one error) would be nearer
        // than the dog branch (two); the tag says dog.
        let cases = [
            (r#"{"pet": {"kind": "dog", "lives": 3}}"#, 1, "required"),
            (r#"{"pet": {"kind": "cat", "lives": 12}}"#, 0, "maximum"),
            (r#"{"pet": {"kind": "dog", "good": "yes"}}"#, 1, "type"),
        ];
        for (text, branch, keyword) in cases {
            let value: Value = serde_json::from_str(text).unwrap();
            let violations = c.violations(&value);
            assert!(!violations.is_empty(), "{text}");
            assert!(violations.iter().all(|v| v.branch.as_ref().map(|b| b.index) == Some(branch)), "{text}: {violations:?}");
            assert!(violations.iter().any(|v| v.keyword == keyword), "{text}: {violations:?}");
            // The one-pass path's located report is the full path's.
            assert_eq!(c.check_text(text).err(), c.validate_text(text).err(), "{text}");
            // The stream's early violations are the final error's, byte by byte.
            let mut s = OutputStream::new(&c, StreamOptions { max_retries: 0, ..StreamOptions::default() });
            let mut early = Vec::new();
            for b in text.as_bytes() {
                early = s.push(std::slice::from_ref(b)).early_violations;
            }
            let last = match s.finish(StopReason::Stop, None) {
                output_contract::StreamOutcome::Failed { error, .. } => error.violations,
                output_contract::StreamOutcome::Retry { violations, .. } => violations,
                other => panic!("{text}: {other:?}"),
            };
            assert!(!early.is_empty(), "{text}: no early violation");
            let key = |v: &output_contract::Violation| (v.path.clone(), v.keyword.clone(), v.message.clone(), v.schema_path.clone(), v.branch.clone());
            let last: Vec<_> = last.iter().map(key).collect();
            for v in &early {
                assert!(last.contains(&key(v)), "{text}: early {v:?} is not in the final error {last:?}");
            }
        }
    }
}

#[test]
fn typebox_refs_to_schemas_given_as_resources_resolve() {
    // `Type.Ref(Customer)` in an object, `Customer` (with `$id: "Customer"`) given beside it.
    let customer = json!({"$id": "Customer", "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let schema = json!({"type": "object", "properties": {"customer": {"$ref": "Customer"}}, "required": ["customer"]});
    let options = Options { resources: [("Customer".to_string(), customer)].into_iter().collect(), ..Options::default() };
    let c = Contract::compile(&schema, &options).unwrap();
    assert!(c.is_valid(&json!({"customer": {"name": "a"}})));
    assert!(!c.is_valid(&json!({"customer": {}})));
}

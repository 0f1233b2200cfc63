//! Each provider's streaming events, read into the normalised `ProviderEvent`s:
//! - OpenAI Chat Completions: chunks of `choices[0].delta` (`content`, `refusal`,
//!   `tool_calls[].function.arguments`), `finish_reason`, an optional `usage` chunk, then
//!   `data: [DONE]`; a mid-stream failure is a chunk holding `error`.
//! - OpenAI Responses: typed events (`response.output_text.delta`, `response.refusal.delta`,
//!   `response.output_item.added` of a `function_call`, `response.function_call_arguments.delta`),
//!   ended by `response.completed`, `response.incomplete` (its reason) or `response.failed`;
//!   `error` events.
//! - Anthropic Messages: `message_start`, `content_block_start` (text or `tool_use`),
//!   `content_block_delta` (`text_delta`, `input_json_delta`), `message_delta` with the
//!   `stop_reason` and usage, `message_stop`; `ping`; `error`.

use super::event_json::EventJson;
use super::sse::SseEvent;
use super::{ErrorKind, Provider, ProviderError, ProviderEvent};
use serde_json::{Map, Value};

/// The reading of one provider's events, with what it must remember between them.
pub struct Wire {
    provider: Provider,
    /// The stop reason as the provider said it, once it did.
    stop_reason: Option<String>,
    usage: Map<String, Value>,
    /// The end or an error was read: later events are ignored.
    over: bool,
}

impl Wire {
    pub fn new(provider: Provider) -> Self {
        Wire { provider, stop_reason: None, usage: Map::new(), over: false }
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Reads one server-sent event.
    pub fn event(&mut self, sse: &SseEvent, out: &mut Vec<ProviderEvent>) {
        if self.over {
            return;
        }
        if self.provider == Provider::OpenAiChat && sse.data.trim() == "[DONE]" {
            return self.end(out);
        }
        let value = match EventJson::parse(&sse.data) {
            Ok(value) => value,
            Err(e) => return self.fail(ErrorKind::InvalidEvent, None, format!("a {} event is not JSON ({e}): {}", sse.event, clip(&sse.data)), out),
        };
        match self.provider {
            Provider::OpenAiChat => self.chat(&value, out),
            Provider::OpenAiResponses => self.responses(&sse.event, &value, out),
            Provider::Anthropic => self.anthropic(&sse.event, &value, out),
        }
    }

    /// The body ended: the end, if the provider had said how the answer stopped, else a cut
    /// connection.
    pub fn body_ended(&mut self, out: &mut Vec<ProviderEvent>) {
        if self.over {
            return;
        }
        if self.stop_reason.is_some() && self.provider != Provider::OpenAiResponses {
            return self.end(out);
        }
        self.fail(ErrorKind::IncompleteStream, None, format!("the {} stream ended before the answer did", self.provider.name()), out);
    }

    fn end(&mut self, out: &mut Vec<ProviderEvent>) {
        self.over = true;
        let usage = if self.usage.is_empty() { None } else { Some(Value::Object(std::mem::take(&mut self.usage))) };
        out.push(ProviderEvent::End { stop_reason: self.stop_reason.take(), usage });
    }

    fn fail(&mut self, kind: ErrorKind, code: Option<String>, message: String, out: &mut Vec<ProviderEvent>) {
        self.over = true;
        out.push(ProviderEvent::Error(ProviderError { kind, code, message }));
    }

    /// A provider's error object (`{type?, code?, message}`) as an error event.
    fn provider_error(&mut self, error: Option<&EventJson>, out: &mut Vec<ProviderEvent>) {
        let code = [error.and_then(|e| e.get("code")), error.and_then(|e| e.get("type"))].into_iter().flatten().find_map(|v| match v {
            EventJson::Str(s) => Some(s.to_string()),
            EventJson::Number(_) => Some(v.to_value().to_string()),
            _ => None,
        });
        let message = error.and_then(|e| str_at(e, "message")).unwrap_or("the provider reported an error").to_string();
        self.fail(ErrorKind::ProviderError, code, message, out);
    }

    fn merge_usage(&mut self, usage: Option<&EventJson>) {
        if let Some(EventJson::Object(fields)) = usage {
            for (k, v) in fields {
                self.usage.insert(k.to_string(), v.to_value());
            }
        }
    }

    fn chat(&mut self, chunk: &EventJson, out: &mut Vec<ProviderEvent>) {
        if let Some(error) = chunk.get("error") {
            return self.provider_error(Some(error), out);
        }
        self.merge_usage(chunk.get("usage"));
        // One answer is read: the first choice (a request with `n` > 1 gets the others too).
        let Some(choice) = chunk.get("choices").and_then(EventJson::as_array).and_then(|c| c.iter().find(|c| c.get("index").and_then(EventJson::as_u64).unwrap_or(0) == 0)) else {
            return;
        };
        if let Some(delta) = choice.get("delta") {
            if let Some(text) = str_at(delta, "content").filter(|t| !t.is_empty()) {
                out.push(ProviderEvent::Text { text: text.to_string() });
            }
            if let Some(text) = str_at(delta, "refusal").filter(|t| !t.is_empty()) {
                out.push(ProviderEvent::Refusal { text: text.to_string() });
            }
            for call in delta.get("tool_calls").and_then(EventJson::as_array).into_iter().flatten() {
                let index = call.get("index").and_then(EventJson::as_u64).unwrap_or(0);
                let function = call.get("function");
                if let Some(name) = function.and_then(|f| str_at(f, "name")) {
                    out.push(ProviderEvent::ToolCall { index, id: str_at(call, "id").map(str::to_string), name: name.to_string() });
                }
                if let Some(text) = function.and_then(|f| str_at(f, "arguments")).filter(|t| !t.is_empty()) {
                    out.push(ProviderEvent::ToolArguments { index, text: text.to_string() });
                }
            }
        }
        if let Some(reason) = str_at(choice, "finish_reason") {
            self.stop_reason = Some(reason.to_string());
        }
    }

    fn responses(&mut self, name: &str, event: &EventJson, out: &mut Vec<ProviderEvent>) {
        let kind = str_at(event, "type").unwrap_or(name);
        let index = event.get("output_index").and_then(EventJson::as_u64).unwrap_or(0);
        let delta = || str_at(event, "delta").unwrap_or_default().to_string();
        match kind {
            "response.output_text.delta" => out.push(ProviderEvent::Text { text: delta() }),
            "response.refusal.delta" => out.push(ProviderEvent::Refusal { text: delta() }),
            "response.output_item.added" => {
                let item = event.get("item");
                if item.and_then(|i| str_at(i, "type")) == Some("function_call") {
                    let name = item.and_then(|i| str_at(i, "name")).unwrap_or_default().to_string();
                    let id = item.and_then(|i| str_at(i, "call_id").or_else(|| str_at(i, "id"))).map(str::to_string);
                    out.push(ProviderEvent::ToolCall { index, id, name });
                }
            }
            "response.function_call_arguments.delta" => out.push(ProviderEvent::ToolArguments { index, text: delta() }),
            "response.completed" | "response.incomplete" => {
                let response = event.get("response");
                self.merge_usage(response.and_then(|r| r.get("usage")));
                // The Responses API has no finish reason: a completed response reads as `completed`,
                // an incomplete one by its reason (`max_output_tokens`, `content_filter`).
                let reason = response.and_then(|r| r.get("incomplete_details")).and_then(|d| str_at(d, "reason"));
                self.stop_reason = Some(reason.unwrap_or(if kind == "response.completed" { "completed" } else { "incomplete" }).to_string());
                self.end(out);
            }
            "response.failed" => self.provider_error(event.get("response").and_then(|r| r.get("error")), out),
            "error" => self.provider_error(Some(event), out),
            _ => {}
        }
    }

    fn anthropic(&mut self, name: &str, event: &EventJson, out: &mut Vec<ProviderEvent>) {
        let kind = str_at(event, "type").unwrap_or(name);
        let index = event.get("index").and_then(EventJson::as_u64).unwrap_or(0);
        match kind {
            "message_start" => self.merge_usage(event.get("message").and_then(|m| m.get("usage"))),
            "content_block_start" => {
                let Some(block) = event.get("content_block") else { return };
                match str_at(block, "type") {
                    Some("text") => {
                        if let Some(text) = str_at(block, "text").filter(|t| !t.is_empty()) {
                            out.push(ProviderEvent::Text { text: text.to_string() });
                        }
                    }
                    Some("tool_use") => {
                        let name = str_at(block, "name").unwrap_or_default().to_string();
                        out.push(ProviderEvent::ToolCall { index, id: str_at(block, "id").map(str::to_string), name });
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let Some(delta) = event.get("delta") else { return };
                match str_at(delta, "type") {
                    Some("text_delta") => out.push(ProviderEvent::Text { text: str_at(delta, "text").unwrap_or_default().to_string() }),
                    Some("input_json_delta") => out.push(ProviderEvent::ToolArguments { index, text: str_at(delta, "partial_json").unwrap_or_default().to_string() }),
                    _ => {}
                }
            }
            "message_delta" => {
                self.merge_usage(event.get("usage"));
                if let Some(reason) = event.get("delta").and_then(|d| str_at(d, "stop_reason")) {
                    self.stop_reason = Some(reason.to_string());
                }
            }
            "message_stop" => self.end(out),
            "error" => self.provider_error(event.get("error"), out),
            _ => {}
        }
    }
}

fn str_at<'a>(value: &'a EventJson, key: &str) -> Option<&'a str> {
    value.get(key).and_then(EventJson::as_str)
}

/// The head of an event's data for a message.
fn clip(data: &str) -> String {
    const SHOWN: usize = 120;
    match data.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", data.get(..end).unwrap_or_default()),
        None => data.to_string(),
    }
}

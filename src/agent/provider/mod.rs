//! A model provider's streaming response, bytes in: the server-sent events decoded (`sse`), each
//! provider's events read into one normalised form (`wire`), and the answer's output routed into
//! the stream state machine (`ProviderStream`): the text, or the submit tool's arguments when the
//! answer calls it (text around the call is not the output). Refusals, token limits, provider
//! errors and cut connections each end as what they are, never as a schema violation.

mod event_json;
pub mod sse;
pub mod wire;

use crate::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use crate::schema::contract::Contract;
use serde::Serialize;
use serde_json::Value;
use sse::{SseDecoder, SseEvent};
use wire::Wire;

/// The wire formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI Chat Completions (`stream: true`), and the many APIs that copy it.
    OpenAiChat,
    /// OpenAI Responses (`stream: true`).
    OpenAiResponses,
    /// Anthropic Messages (`stream: true`).
    Anthropic,
}

impl Provider {
    pub fn parse(name: &str) -> Option<Provider> {
        match name {
            "openai-chat" => Some(Provider::OpenAiChat),
            "openai-responses" => Some(Provider::OpenAiResponses),
            "anthropic" => Some(Provider::Anthropic),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The provider sent an error event (overloaded, rate limited, server error, …).
    ProviderError,
    /// The body ended before the provider said the answer had ended: a cut connection.
    IncompleteStream,
    /// An event's data is not what the provider sends (not JSON).
    InvalidEvent,
}

/// Why a stream could not be read to an answer: never the answer's fault, so never a violation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProviderError {
    pub kind: ErrorKind,
    /// The provider's error code or type (`overloaded_error`, `rate_limit_exceeded`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    pub message: String,
}

/// One normalised event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ProviderEvent {
    /// Text of the answer.
    Text { text: String },
    /// A tool call starts; `index` names it in the argument deltas that follow.
    #[serde(rename_all = "camelCase")]
    ToolCall { index: u64, #[serde(skip_serializing_if = "Option::is_none")] id: Option<String>, name: String },
    /// Text of a tool call's arguments (JSON, in pieces).
    ToolArguments { index: u64, text: String },
    /// Text of a refusal (OpenAI's `refusal` content).
    Refusal { text: String },
    /// The answer ended: the stop reason as the provider said it, and the token usage it reported.
    #[serde(rename_all = "camelCase")]
    End { stop_reason: Option<String>, usage: Option<Value> },
    Error(ProviderError),
}

/// Bytes in, normalised events out.
pub struct EventDecoder {
    sse: SseDecoder,
    wire: Wire,
    events: Vec<SseEvent>,
}

impl EventDecoder {
    pub fn new(provider: Provider) -> Self {
        EventDecoder { sse: SseDecoder::new(), wire: Wire::new(provider), events: Vec::new() }
    }

    /// Decodes a chunk, appending the events it completes to `out`.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<ProviderEvent>) {
        self.sse.push(chunk, &mut self.events);
        for event in self.events.drain(..) {
            self.wire.event(&event, out);
        }
    }

    /// The body ended: its last events (the end, or the error of a cut connection).
    pub fn end(&mut self, out: &mut Vec<ProviderEvent>) {
        self.wire.body_ended(out);
    }

    /// The end or an error was read: nothing after it matters.
    pub fn is_over(&self) -> bool {
        self.wire.is_over()
    }

    /// Bytes the event-stream decoder has scanned (each once: the input's length).
    pub fn scanned(&self) -> usize {
        self.sse.scanned()
    }
}

/// How a stop reason a provider gave reads; one this library does not know reads as a complete
/// answer (validated), which is what the providers' other reasons (`pause_turn`, …) leave.
pub fn stop_reason_of(raw: Option<&str>) -> StopReason {
    let raw = raw.unwrap_or("stop");
    StopReason::parse(raw).unwrap_or(match raw {
        "max_output_tokens" | "model_context_window_exceeded" => StopReason::Length,
        "function_call" => StopReason::ToolUse,
        _ => StopReason::Stop,
    })
}

/// An answer's outcome, with how the provider said it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderOutcome {
    pub outcome: StreamOutcome,
    /// The stop reason as the provider said it (none when the attempt was cut at an early violation).
    pub stop_reason: Option<String>,
    pub usage: Option<Value>,
}

/// Options of a `ProviderStream`.
#[derive(Clone, Debug, Default)]
pub struct ProviderOptions {
    pub stream: StreamOptions,
    /// The submit tool's name: when the answer calls it, its arguments are the output. Not
    /// given, it is `submit_result` (the name `submit_result_tool` gives), and the answer's text
    /// is read as it arrives until such a call comes.
    pub tool: Option<String>,
}

/// One provider response validated as it arrives: bytes in, the stream status out.
pub struct ProviderStream {
    events: EventDecoder,
    stream: OutputStream,
    /// The submit tool's name (`submit_result` when not given).
    tool: String,
    /// Whether the caller named the tool: then the answer's text is never the streamed output.
    declared: bool,
    /// The first other tool the answer called, while it has not called the submit tool.
    other: Option<String>,
    /// The submit call's index, once the answer called the tool.
    call: Option<u64>,
    /// The answer's text deltas: the output without `tool`, else what is read when no call came.
    text: String,
    /// The submit call's arguments.
    arguments: String,
    refusal: String,
    end: Option<(Option<String>, Option<Value>)>,
    error: Option<ProviderError>,
    pending: Vec<ProviderEvent>,
}

impl ProviderStream {
    pub fn new(contract: &Contract, provider: Provider, options: ProviderOptions) -> Self {
        // Text may carry prose or a fence around the JSON; tool arguments are JSON alone.
        let stream = StreamOptions { extract: options.tool.is_none(), ..options.stream };
        ProviderStream {
            events: EventDecoder::new(provider),
            stream: OutputStream::new(contract, stream),
            declared: options.tool.is_some(),
            tool: options.tool.unwrap_or_else(|| crate::agent::tool::DEFAULT_NAME.to_string()),
            other: None,
            call: None,
            text: String::new(),
            arguments: String::new(),
            refusal: String::new(),
            end: None,
            error: None,
            pending: Vec::new(),
        }
    }

    /// Appends a chunk of the body.
    pub fn push(&mut self, chunk: &[u8]) {
        // Past the end the bytes are still decoded (cheaply: the events are ignored), so every
        // byte of a body read to its end is scanned once.
        if self.stream.is_aborted() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        self.events.push(chunk, &mut pending);
        for event in pending.drain(..) {
            self.route(event);
        }
        self.pending = pending;
    }

    /// The attempt was ended by an early violation: the caller stops reading (and cancels).
    pub fn is_aborted(&self) -> bool {
        self.stream.is_aborted()
    }

    /// Nothing more will be read: the end, an error, or an early violation that ended the attempt.
    pub fn settled(&self) -> bool {
        self.end.is_some() || self.error.is_some() || self.stream.is_aborted()
    }

    pub fn output_stream(&self) -> &OutputStream {
        &self.stream
    }

    pub fn scanned(&self) -> usize {
        self.events.scanned()
    }

    fn route(&mut self, event: ProviderEvent) {
        if self.settled() {
            return;
        }
        match event {
            ProviderEvent::Text { text } => {
                if !self.declared && self.call.is_none() {
                    self.stream.push_quiet(text.as_bytes());
                }
                self.text.push_str(&text);
            }
            ProviderEvent::ToolCall { index, name, .. } => {
                if self.call.is_none() && self.tool == name {
                    self.call = Some(index);
                    if !self.declared {
                        // The answer's text was read until now: the call's arguments are the
                        // output instead (a forced tool choice, or prose before the call).
                        self.stream.restart_attempt();
                    }
                } else if self.call.is_none() && self.other.is_none() {
                    self.other = Some(name);
                }
            }
            ProviderEvent::ToolArguments { index, text } => {
                if self.call == Some(index) {
                    self.stream.push_quiet(text.as_bytes());
                    self.arguments.push_str(&text);
                }
            }
            ProviderEvent::Refusal { text } => self.refusal.push_str(&text),
            ProviderEvent::End { stop_reason, usage } => self.end = Some((stop_reason, usage)),
            ProviderEvent::Error(error) => self.error = Some(error),
        }
    }

    /// The body ended (or the caller stopped reading it after an early violation): the outcome,
    /// or the error that kept the answer from arriving.
    pub fn finish(&mut self) -> Result<ProviderOutcome, ProviderError> {
        self.finish_with(true)
    }

    /// `finish`; without `with_data`, a valid outcome whose data is the parse of the output's
    /// text leaves it there (`OutputStream::finish_with`, `data_text`).
    pub(crate) fn finish_with(&mut self, with_data: bool) -> Result<ProviderOutcome, ProviderError> {
        if self.stream.is_aborted() {
            let output = if self.call.is_some() { &self.arguments } else { &self.text };
            let outcome = self.stream.finish_text(StopReason::Stop, None, output, true, false);
            return Ok(ProviderOutcome { outcome, stop_reason: None, usage: None });
        }
        if !self.settled() {
            let mut last = Vec::new();
            self.events.end(&mut last);
            for event in last {
                self.route(event);
            }
        }
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let (stop_reason, usage) = self.end.take().unwrap_or_default();
        let reason = stop_reason_of(stop_reason.as_deref());
        let outcome = if !self.refusal.is_empty() || reason == StopReason::Refusal {
            // OpenAI says a refusal in its own field; with Anthropic's `refusal` stop reason the
            // model's text is what it said. A content filter (not the model) says nothing: the
            // text it cut is no refusal.
            let said = match (self.refusal.is_empty(), stop_reason.as_deref()) {
                (false, _) => self.refusal.as_str(),
                (true, Some("refusal")) => self.text.as_str(),
                (true, _) => "",
            };
            self.stream.finish(StopReason::Refusal, Some(said))
        } else if let Some(other) = self.other.as_deref().filter(|_| self.call.is_none() && (self.declared || !self.stream.started())) {
            // Another tool was called, and no output came: the model is told which tool to call.
            let violation = crate::report::violation::wrong_tool(other, &self.tool);
            let error = self.stream.contract.failure(vec![violation], &self.text);
            self.stream.conclude(Err(error))
        } else if self.declared && self.call.is_none() {
            // The tool was not called: the answer's text is read as a text answer is.
            self.stream.finish_text(reason, None, &self.text, false, false)
        } else {
            let output = if self.call.is_some() { &self.arguments } else { &self.text };
            self.stream.finish_text_with(reason, None, output, true, false, with_data)
        };
        Ok(ProviderOutcome { outcome, stop_reason, usage })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn contract() -> Contract {
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false});
        Contract::compile(&schema, &crate::schema::contract::Options::default()).unwrap()
    }

    fn run(provider: Provider, tool: Option<&str>, body: &str) -> Result<ProviderOutcome, ProviderError> {
        let mut s = ProviderStream::new(&contract(), provider, ProviderOptions { tool: tool.map(str::to_string), ..ProviderOptions::default() });
        s.push(body.as_bytes());
        s.finish()
    }

    #[test]
    fn text_before_the_submit_call_is_not_the_output() {
        let body = concat!(
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Here {it} is\"}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"submit_result\",\"input\":{}}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": 1}\"}}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":9}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        );
        let out = run(Provider::Anthropic, Some("submit_result"), body).unwrap();
        assert_eq!(out.outcome, StreamOutcome::Valid { valid: true, data: json!({"a": 1}), attempt: 1 });
        assert_eq!(out.stop_reason.as_deref(), Some("tool_use"));
        assert_eq!(out.usage, Some(json!({"output_tokens": 9})));
    }

    /// An Anthropic answer that only calls `name` with `arguments` (a forced tool choice).
    fn only_a_call(name: &str, arguments: &str) -> String {
        format!(
            concat!(
                "event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"{}\",\"input\":{{}}}}}}\n\n",
                "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"input_json_delta\",\"partial_json\":{}}}}}\n\n",
                "event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"tool_use\"}}}}\n\n",
                "event: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n",
            ),
            name,
            serde_json::to_string(arguments).unwrap()
        )
    }

    #[test]
    fn without_a_tool_a_submit_result_call_is_the_output() {
        let out = run(Provider::Anthropic, None, &only_a_call("submit_result", "{\"a\": 4}")).unwrap();
        assert_eq!(out.outcome, StreamOutcome::Valid { valid: true, data: json!({"a": 4}), attempt: 1 });
        let StreamOutcome::Retry { violations, .. } = run(Provider::Anthropic, None, &only_a_call("submit_result", "{\"a\": \"x\"}")).unwrap().outcome else { panic!() };
        assert_eq!(violations.iter().map(|v| v.keyword.as_str()).collect::<Vec<_>>(), ["type"]);
    }

    #[test]
    fn an_answer_that_calls_another_tool_is_told_which_to_call() {
        for tool in [None, Some("submit_result")] {
            let StreamOutcome::Retry { violations, prompt, .. } = run(Provider::Anthropic, tool, &only_a_call("get_weather", "{\"a\": 4}")).unwrap().outcome else { panic!() };
            assert_eq!(violations.len(), 1);
            let v = &violations[0];
            assert_eq!((v.keyword.as_str(), &v.expected, &v.received), ("tool", &json!("submit_result"), &json!("get_weather")));
            assert_eq!(v.message, "the answer called the tool 'get_weather' instead of 'submit_result': call 'submit_result' with the output as its arguments");
            assert!(v.is_retryable());
            assert!(prompt.contains("call 'submit_result'"), "{prompt}");
        }
        let StreamOutcome::Retry { violations, .. } = run(Provider::Anthropic, Some("answer"), &only_a_call("submit_result", "{\"a\": 4}")).unwrap().outcome else { panic!() };
        assert_eq!(violations[0].message, "the answer called the tool 'submit_result' instead of 'answer': call 'answer' with the output as its arguments");
    }

    #[test]
    fn only_the_first_choice_and_the_output_deltas_are_read() {
        // A second choice (`n` > 1) and thinking deltas are not the answer.
        let chat = concat!(
            "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"x\"}},{\"index\":0,\"delta\":{\"content\":\"{\\\"a\\\": 2}\"}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        );
        assert_eq!(run(Provider::OpenAiChat, None, chat).unwrap().outcome, StreamOutcome::Valid { valid: true, data: json!({"a": 2}), attempt: 1 });
        let thinking = concat!(
            "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"{oops\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"a\\\": 3}\"}}\n\n",
            "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n",
            "data: {\"type\":\"message_stop\"}\n\n",
        );
        assert_eq!(run(Provider::Anthropic, None, thinking).unwrap().outcome, StreamOutcome::Valid { valid: true, data: json!({"a": 3}), attempt: 1 });
        // A Responses answer stopped by the content filter is refused.
        let filtered = "data: {\"type\":\"response.incomplete\",\"response\":{\"incomplete_details\":{\"reason\":\"content_filter\"}}}\n\n";
        let out = run(Provider::OpenAiResponses, None, filtered).unwrap();
        assert_eq!((out.outcome, out.stop_reason.as_deref()), (StreamOutcome::Refused { refusal: String::new(), attempt: 1 }, Some("content_filter")));
    }

    #[test]
    fn events_serialize_with_their_type() {
        let events = [ProviderEvent::Text { text: "a".into() }, ProviderEvent::End { stop_reason: Some("stop".into()), usage: None }];
        assert_eq!(serde_json::to_value(events).unwrap(), json!([{"type": "text", "text": "a"}, {"type": "end", "stopReason": "stop", "usage": null}]));
    }

    #[test]
    fn a_cut_connection_and_an_error_event_are_errors() {
        let cut = run(Provider::OpenAiChat, None, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"a\\\"\"}}]}\n\n").unwrap_err();
        assert_eq!(cut.kind, ErrorKind::IncompleteStream);
        let error = run(Provider::OpenAiResponses, None, "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"boom\"}\n\n").unwrap_err();
        assert_eq!((error.kind, error.code.as_deref(), error.message.as_str()), (ErrorKind::ProviderError, Some("server_error"), "boom"));
    }
}

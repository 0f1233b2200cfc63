# workerd config for the edge agent. The worker bundle (worker.js) is built with esbuild using the
# `workerd` export condition and `*.wasm` external; MODEL_URL (the provider's base URL), PROVIDER
# and the port are set for the run.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "agent", worker = .agent),
    # Outbound requests may reach the model provider (a local one in the tests).
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:PORT", http = (), service = "agent") ],
);

const agent :Workerd.Worker = (
  modules = [
    (name = "src/worker.js", esModule = embed "worker.js"),
    (name = "wasm/output_contract_bg.wasm", wasm = embed "output_contract_bg.wasm"),
    (name = "wasm/output_contract_tools_bg.wasm", wasm = embed "output_contract_tools_bg.wasm"),
  ],
  bindings = [
    (name = "MODEL_URL", text = "MODEL_URL_VALUE"),
    (name = "PROVIDER", text = "PROVIDER_VALUE"),
    (name = "API_KEY", text = "test-key"),
  ],
  compatibilityDate = "2026-10-01",
  globalOutbound = "internet",
);

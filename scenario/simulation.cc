#include "scenario/simulation.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_format.h"

namespace sendsim::scenario {
namespace {

// Forwards every callback to several observers in order.
class Fanout : public model::Observer {
 public:
  explicit Fanout(std::vector<model::Observer*> observers) : observers_(std::move(observers)) {}
  void OnWirePacket(const model::WirePacket& pkt) override {
    for (model::Observer* o : observers_) o->OnWirePacket(pkt);
  }
  void OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override {
    for (model::Observer* o : observers_) o->OnDeliver(t, seq, data, len);
  }

 private:
  std::vector<model::Observer*> observers_;
};

// Runs the loop as `plan` says; fills the stop fields of `r`.
void RunLoop(model::EventLoop& loop, Application& app, const RunPlan& plan, SimulationResult* r) {
  if (plan.slice_ns > 0) {
    // Time slices: a finished run stops at the end of its slice, not at the
    // horizon.
    model::TimeNs t = 0;
    while (t < plan.horizon_ns && !loop.empty()) {
      t = std::min(t + plan.slice_ns, plan.horizon_ns);
      loop.RunUntil(t);
      if (plan.progress) plan.progress();
      if (app.Done()) {
        r->app_done = true;
        break;
      }
    }
    r->stopped_at_horizon = !r->app_done && !loop.empty();
  } else if (plan.slice_events > 0) {
    while (!loop.empty()) {
      loop.Run(plan.slice_events);
      if (plan.progress) plan.progress();
      if (app.Done()) {
        r->app_done = true;
        break;
      }
      if (plan.horizon_ns > 0 && loop.now() > plan.horizon_ns) {
        r->stopped_at_horizon = !loop.empty();
        break;
      }
    }
  } else {
    loop.Run();
  }
  r->end_ns = loop.now();
  r->loop_empty = loop.empty();
}

}  // namespace

absl::StatusOr<SimulationResult> Simulation::Run(Application& app) const {
  absl::StatusOr<model::Profile> profile = model::ProfileByName(scenario.kernel);
  if (!profile.ok()) return profile.status();
  const model::ConnectionConfig cfg = BuildConnectionConfig(scenario, outputs);
  model::EventLoop loop;
  absl::StatusOr<model::Observer*> first = app.Prepare(&loop, *profile, cfg);
  if (!first.ok()) return first.status();
  if (absl::Status st = model::ValidateConfig(cfg); !st.ok()) {
    return absl::InvalidArgumentError(absl::StrFormat("model rejects the configuration: %s", st.message()));
  }
  std::vector<model::Observer*> all;
  if (*first != nullptr) all.push_back(*first);
  for (model::Observer* o : observers) {
    if (o != nullptr) all.push_back(o);
  }
  // One observer is called directly: the benchmarks measure the model, not
  // a fan-out.
  Fanout fanout(all);
  model::Observer* observer = all.empty() ? nullptr : all.size() == 1 ? all.front() : &fanout;
  absl::StatusOr<std::unique_ptr<model::Connection>> conn = model::Connection::Create(&loop, cfg, *profile, observer);
  if (!conn.ok()) return conn.status();
  if (absl::Status st = app.Start(conn->get()); !st.ok()) return st;

  SimulationResult r;
  RunLoop(loop, app, plan, &r);
  model::Connection& c = **conn;
  r.counters = c.socket().counters();
  r.info = c.socket().info();
  r.histogram = c.histogram();
  r.unacked_bytes = c.unacked_bytes();
  r.delivered_bytes = c.delivered_bytes();
  r.peer_delayed_acks = c.peer_delayed_acks();
  r.data_timing = c.data_timing();
  r.invariants = c.CheckInvariants();
  r.events_run = loop.events_run();
  r.max_queue_size = loop.max_queue_size();
  return r;
}

MessengerWorkload::MessengerWorkload(std::vector<messenger::MessageSpec> specs,
                                     messenger::DriverOptions driver_options,
                                     messenger::ConnectionOptions connection_options)
    : specs_(std::move(specs)),
      driver_options_(std::move(driver_options)),
      connection_options_(std::move(connection_options)) {}

MessengerWorkload MessengerWorkload::ForScenario(const Scenario& s, messenger::WriterKind kind) {
  return MessengerWorkload(BuildWorkload(s), BuildDriverOptions(s), BuildConnectionOptions(s, kind));
}

absl::StatusOr<model::Observer*> MessengerWorkload::Prepare(model::EventLoop* loop, const model::Profile& profile,
                                                            const model::ConnectionConfig& cfg) {
  // ACKs are reported at their departure from the peer and reach the
  // sender one link delay later.
  driver_options_.ack_arrival_delay_ns = cfg.one_way_delay_ns;
  // Must equal the model's (messenger/connection.h).
  connection_options_.costs.call_cost_ns = cfg.call_cost_ns;
  connection_options_.has_sendpage = profile.has_sendpage;
  driver_ = std::make_unique<messenger::WorkloadDriver>(loop, std::move(specs_), driver_options_);
  return driver_.get();
}

absl::Status MessengerWorkload::Start(model::Connection* conn) {
  if (absl::Status st = driver_->Attach(&conn->socket(), connection_options_); !st.ok()) return st;
  driver_->Start();
  return absl::OkStatus();
}

}  // namespace sendsim::scenario

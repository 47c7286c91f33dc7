// sim/main.cc - schedsim's entry point: parse flags (cli.h), run the
// chosen policies on one workload, print the report; `schedsim ostep ...`
// runs OSTEP's homework simulators instead (ostep.h). Bad input gets one
// error line on stderr and exit status 2.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "sim/ostep.h"

namespace {

using namespace schedsim;

[[noreturn]] void fail(const std::string& msg) {
    std::fprintf(stderr, "schedsim: %s\n", msg.c_str());
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string(argv[1]) == "ostep") {  // the OSTEP homework simulators (sim/ostep.h)
        std::string out, err;
        const int status = ostep::run(std::vector<std::string>(argv + 2, argv + argc), out, err);
        std::fputs(out.c_str(), stdout);
        std::fputs(err.c_str(), stderr);
        return status;
    }
    Options o;
    try {
        o = parse_options(argc, argv);
    } catch (const UsageError& e) {
        fail(e.what());
    }
    if (o.list_policies) {
        for (unsigned k = 0; k < q::sched::kPolicyKinds; k++)
            std::printf("%s\n", q::sched::policy_name(static_cast<q::sched::PolicyKind>(k)));
        return 0;
    }
    if (o.help) {
        std::fputs(help_text().c_str(), stdout);
        return 0;
    }
    std::vector<TaskSpec> fixed;
    try {
        fixed = load_workload(o.cfg);
    } catch (const std::exception& e) {
        fail(e.what());
    }
    std::vector<Result> results;
    for (auto k : o.policies) {
        Config c = o.cfg;
        c.policy = k;
        if (o.policies.size() > 1) {  // --policy all: say which run the progress is of
            c.progress_label = std::string(q::sched::policy_name(k)) + ", " + std::to_string(results.size() + 1) +
                               " of " + std::to_string(o.policies.size());
        }
        results.push_back(simulate(c, fixed));
    }
    if (o.format == Format::Csv) {
        print_csv(stdout, results);
    } else if (o.format == Format::Json) {
        print_json(stdout, results);
    } else if (results.size() == 1) {
        print_text(stdout, results[0]);
    } else {
        print_side_by_side(stdout, results);
    }
    if (!o.tasks_out.empty() && !write_tasks_csv(o.tasks_out, results)) return 1;
    if (!o.plot.empty() && !plot(o.plot, results)) return 1;
    return 0;
}

// gpuforecast-cli: the engine without a GUI, for scripts. Exit codes: 0 success, 2 bad input or
// usage (one line on stderr naming the file and field), 1 anything else.
#include "arguments.h"
#include "commands.h"

#include "gpuforecast/error.h"
#include "gpuforecast/json_fields.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#ifndef GPUFORECAST_VERSION
#define GPUFORECAST_VERSION "unknown"
#endif

namespace {

// Each command's lines of the usage, in the order --help lists them; "predict --help" prints
// only its own block, so a user asking about one command is not handed all seven.
struct CommandUsage {
    const char* names[2]; // "gpus" and "models" share a line
    const char* text;
};
const CommandUsage kCommands[] = {
    {{"gpus", "models"}, "  gpus | models [--json]                list known GPUs / bundled models (--json: for scripts)\n"},
    {{"predict", nullptr},
     "  predict --model ID|config.json --gpu ID|spec.json --seq N [--batch N (default 1)]\n"
     "          [--mode inference|training] [--fusion] [--checkpointing] [--json]\n"
     "          [--parallel dpN|tpN|ppN_M] [--dp N --tp N --pp N --microbatches M --schedule gpipe|1f1b]\n"
     "          [--zero 0-3 (ZeRO: the dp replicas shard optimizer state, gradients, weights)]\n"
     "          [--weights DIR]               forecast a whole model\n"},
    {{"kernels", nullptr},
     "  kernels --in K.csv[.gz]|- [--out P.csv] [--details] [--weights DIR]\n"
     "                                        forecast each kernel row (adds pred_ms)\n"},
    {{"train", nullptr},
     "  train --data DIR --out DIR [--holdout GPU] [--seed S] [--ensemble K] [--epochs N]\n"
     "          [--hidden W] [--layers L] [--tiles measured|reference] [--threads T] [--quiet]\n"
     "                                        train the utilization networks from measurements\n"},
    {{"evaluate", nullptr},
     "  evaluate --in K.csv[.gz]|- [--weights DIR] [--roofline-only] [--gpu ID] [--csv]\n"
     "                                        MAPE per GPU and operator class\n"},
    {{"evaluate-models", nullptr},
     "  evaluate-models --in DIR [--gpu ID] [--weights DIR]\n"
     "                                        forecast measured runs DIR/<gpu>/<run>.json and compare\n"},
};

std::string usage()
{
    std::string text = "usage: gpuforecast-cli <command> [options]\ncommands:\n";
    for (const CommandUsage& c : kCommands)
        text += c.text;
    return text + "  --version                             print the version\n";
}

bool isCommand(const std::string& word)
{
    return std::any_of(std::begin(kCommands), std::end(kCommands), [&](const CommandUsage& c) {
        return word == c.names[0] || (c.names[1] && word == c.names[1]);
    });
}

std::string didYouMeanCommand(const std::string& word)
{
    std::vector<std::string> names;
    for (const CommandUsage& c : kCommands)
        for (const char* name : c.names)
            if (name)
                names.emplace_back(name);
    return gpuforecast::json_fields::didYouMean(word, names);
}

std::string usageOf(const std::string& command)
{
    for (const CommandUsage& c : kCommands)
        if (command == c.names[0] || (c.names[1] && command == c.names[1]))
            return "usage:\n" + std::string(c.text) + "(gpuforecast-cli --help lists every command)\n";
    return usage();
}

// Output to a full disk or a closed pipe fails at the flush, after the command has "succeeded":
// a script reading the output must hear of it (exit 1, as for any failure that is not the input's).
int finishOutput(int code)
{
    errno = 0;
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int err = errno;
        std::cerr << "gpuforecast-cli: cannot write the output (" << (err ? std::strerror(err) : "write error") << ")\n";
        return 1;
    }
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace gpuforecast;
    std::vector<std::string> args(argv + 1, argv + argc);
    const auto asksForHelp = [](const std::string& a) { return a == "--help" || a == "-h"; };
    if (args.empty()) { // a usage error: the usage goes where errors go
        std::cerr << usage();
        return 2;
    }
    if (args[0] == "help" || asksForHelp(args[0])) {
        // "help predict" is "predict --help", as git and cargo read it.
        if (args[0] == "help" && args.size() > 1) {
            if (!isCommand(args[1])) {
                std::cerr << "gpuforecast-cli help: unknown command '" << oneLine(args[1]) << "'" << didYouMeanCommand(args[1])
                          << " (see --help)\n";
                return 2;
            }
            std::cout << usageOf(args[1]);
            return finishOutput(0);
        }
        std::cout << usage();
        return finishOutput(0);
    }
    if (args[0] == "--version") {
        if (args.size() > 1) { // "--version --json" is a typo to hear of, not a request to ignore
            std::cerr << "gpuforecast-cli --version: takes no arguments, got '" << oneLine(args[1]) << "'\n";
            return 2;
        }
        std::cout << "gpuforecast-cli " << GPUFORECAST_VERSION << "\n";
        return finishOutput(0);
    }
    const std::map<std::string, int (*)(const std::vector<std::string>&)> commands{
        {"gpus", cli::runGpus},
        {"kernels", cli::runKernels},
        {"train", cli::runTrain},
        {"evaluate", cli::runEvaluate},
        {"predict", cli::runPredict},
        {"models", cli::runModels},
        {"evaluate-models", cli::runEvaluateModels},
    };
    const auto it = commands.find(args[0]);
    if (it == commands.end()) {
        std::cerr << "gpuforecast-cli: unknown command '" << oneLine(args[0]) << "'" << didYouMeanCommand(args[0]) << " (see --help)\n";
        return 2;
    }
    if (std::any_of(args.begin() + 1, args.end(), asksForHelp)) { // "predict --help"
        std::cout << usageOf(args[0]);
        return finishOutput(0);
    }
    try {
        return finishOutput(it->second({args.begin() + 1, args.end()}));
    } catch (const cli::UsageError& e) {
        std::cerr << "gpuforecast-cli " << args[0] << ": " << e.what() << "\n";
        return 2;
    } catch (const OutputError& e) { // the input was fine; the disk was not
        std::cerr << "gpuforecast-cli: " << e.what() << "\n";
        return 1;
    } catch (const ForecastError& e) {
        std::cerr << "gpuforecast-cli: " << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "gpuforecast-cli: out of memory\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "gpuforecast-cli: " << oneLine(e.what()) << "\n";
        return 1;
    }
}

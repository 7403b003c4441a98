// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_export.h"
#include "cli_flow.h"

#include "analysis/pipeline/capture_pipeline.h"
#include "render/connection_figure.h"
#include "render/report.h"

#include <QGuiApplication>
#include <QFile>
#include <QFileInfo>

#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

namespace windscope::cli {

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli export figure FILE (--flow F | --event ID) [--plot NAME]... [--preset ID]\n"
    "                                   [--range FROM:TO | --event ID] [--stevens] -o OUT.png|.pdf|.svg\n"
    "       windscope-cli export series FILE --flow F [-o OUT.csv]\n"
    "       windscope-cli export report FILE [--flow F]... [--plot NAME]... [--preset ID] [--no-event-figures]\n"
    "                                   [--paper a4|letter] -o OUT.html|.pdf\n"
    "  --plot: time-sequence, window, throughput, rtt, wlan (default: the whole stack, top to bottom)\n"
    "  --preset: single-column (85 mm), double-column (175 mm), double-column-colour\n"
    "  --range FROM:TO: seconds since the capture's first packet, as on the plots' time axis\n"
    "  --event ID: an event id from `events`, shown as a click in the event table shows it\n"
    "  --paper: the PDF report's page size, portrait (default a4)\n";

int usageError(const char* what, const std::string& detail = {})
{
    std::fprintf(stderr, "windscope-cli export: %s%s\n%s", what, detail.c_str(), kUsage);
    return 2;
}

int fail(const QString& message)
{
    std::fprintf(stderr, "windscope-cli export: %s\n", qPrintable(message));
    return 1;
}

// Fails early, before the capture is read, when the output cannot be written; leaves
// no empty file behind.
bool checkWritable(const QString& path, QString& error)
{
    const bool existed = QFileInfo::exists(path);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Append)) {
        error = QStringLiteral("%1: cannot write (%2)").arg(path, f.errorString());
        return false;
    }
    f.close();
    if (!existed)
        f.remove();
    return true;
}

// Qt's own notices about the environment (no XDG runtime directory on a server) are
// not the user's business; everything else Qt says goes to stderr as usual.
void qtMessages(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    if (type == QtDebugMsg || type == QtInfoMsg || message.startsWith(QLatin1String("QStandardPaths:")))
        return;
    std::fprintf(stderr, "windscope-cli export: qt: %s\n", qPrintable(message));
}

} // namespace

FigureApplication::FigureApplication()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(qtMessages);
    static int argc = 1;
    static char name[] = "windscope-cli";
    static char* argv[] = {name, nullptr};
    m_app = std::make_unique<QGuiApplication>(argc, argv);
}

FigureApplication::~FigureApplication() = default;

int runExport(const std::vector<std::string>& args)
{
    if (args.empty())
        return usageError("give figure, series or report");
    const std::string what = args.front();
    if (what == "--help" || what == "-h") {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (what != "figure" && what != "series" && what != "report")
        return usageError("unknown export '", what + "' (figure, series or report)");

    std::string path, output, range, eventText, presetId, paperName;
    std::vector<std::string> flows;
    QList<render::PlotKind> plots;
    bool stevens = false, eventFigures = true;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == "--flow" && hasNext)
            flows.push_back(args[++i]);
        else if ((a == "-o" || a == "--output") && hasNext)
            output = args[++i];
        else if (a == "--plot" && hasNext) {
            const std::string name = args[++i];
            const std::optional<render::PlotKind> kind = render::plotKindFromName(QString::fromStdString(name));
            if (!kind)
                return usageError("unknown plot '", name + "'");
            plots << *kind;
        } else if (a == "--preset" && hasNext)
            presetId = args[++i];
        else if (a == "--paper" && hasNext)
            paperName = args[++i];
        else if (a == "--range" && hasNext)
            range = args[++i];
        else if (a == "--event" && hasNext)
            eventText = args[++i];
        else if (a == "--stevens")
            stevens = true;
        else if (a == "--no-event-figures")
            eventFigures = false;
        else if (!a.empty() && a[0] == '-' && a != "-")
            return usageError("unknown option or missing value: ", a);
        else if (path.empty())
            path = a;
        else
            return usageError("one capture file at a time: ", a);
    }
    if (path.empty())
        return usageError("no capture file given");
    if (what != "report" && flows.size() > 1)
        return usageError("one --flow for a ", what);

    render::ExportPreset preset = what == "report" ? render::defaultReportPreset()
                                                   : *render::exportPreset(QStringLiteral("single-column"));
    if (!presetId.empty()) {
        const auto chosen = render::exportPreset(QString::fromStdString(presetId));
        // The screen preset copies widget sizes of a window there is none of here.
        if (!chosen || chosen->id == QLatin1String("screen"))
            return usageError("unknown preset '", presetId + "' (single-column, double-column, double-column-colour)");
        preset = *chosen;
    }
    render::Paper paper = render::Paper::A4;
    if (!paperName.empty()) {
        const auto chosen = render::paperFromName(QString::fromStdString(paperName));
        if (!chosen || what != "report")
            return usageError("--paper takes a4 or letter, for a report: ", paperName);
        paper = *chosen;
    }
    std::optional<std::pair<double, double>> timeRange;
    if (!range.empty()) {
        const auto colon = range.find(':');
        try {
            if (colon == std::string::npos)
                throw std::invalid_argument(range);
            std::size_t used1 = 0, used2 = 0;
            const double from = std::stod(range.substr(0, colon), &used1);
            const double to = std::stod(range.substr(colon + 1), &used2);
            if (used1 != colon || used2 != range.size() - colon - 1 || !(to > from))
                throw std::invalid_argument(range);
            timeRange = std::make_pair(from, to);
        } catch (const std::exception&) {
            return usageError("--range takes FROM:TO in seconds with FROM < TO, not ", range);
        }
    }
    if (timeRange && !eventText.empty())
        return usageError("give --range or --event, not both");
    if (what == "figure" && flows.empty() && eventText.empty())
        return usageError("a figure needs --flow F or --event ID");
    if (what == "series" && flows.empty())
        return usageError("series needs --flow F");
    if (what != "series" && output.empty())
        return usageError("give the output file with -o");

    const QString out = QString::fromStdString(output);
    if (what == "figure" && !render::figureFormatFor(out))
        return fail(QStringLiteral("%1: unknown figure format (use .png, .pdf or .svg)").arg(out));
    if (what == "figure" && render::figureFormatFor(out) == render::FigureFormat::Svg && !render::svgExportAvailable())
        return fail(QStringLiteral("SVG export needs Qt SVG, which this build was made without"));
    if (what == "report" && !render::reportFormatFor(out))
        return fail(QStringLiteral("%1: unknown report format (use .html or .pdf)").arg(out));
    QString error;
    if (!output.empty() && output != "-" && !checkWritable(out, error))
        return fail(error);

    FigureApplication application;
    const QString capturePath = QString::fromStdString(path);
    analysis::pipeline::CapturePipeline pipeline(path);
    std::string message;
    if (!pipeline.run(analysis::pipeline::AnalysisStage::Correlation, message))
        return fail(QString::fromStdString(message));
    printCaptureWarnings(pipeline.tables());
    const analysis::pipeline::AnalysisBundle& c = pipeline.products();
    const analysis::SeriesInputs inputs{c.tables, c.tcp, &pipeline, &c.inventory, &c.events};
    auto seriesOf = [&](std::size_t connection, int sender) {
        analysis::SeriesOptions options;
        options.sender = sender;
        return analysis::buildConnectionSeries(inputs, connection, options);
    };

    std::vector<std::pair<std::size_t, int>> connections; // (connection, sender)
    for (const std::string& flow : flows) {
        std::size_t connection = c.tcp.connections.size();
        int sender = 0;
        if (!resolveFlow(c.tables, c.tcp, flow, connection, sender))
            return fail(QStringLiteral("no connection '%1' in %2 (it has %3; see windscope-cli analyze)")
                            .arg(QString::fromStdString(flow), capturePath)
                            .arg(c.tcp.connections.size()));
        connections.emplace_back(connection, sender);
    }
    int event = -1;
    if (!eventText.empty()) {
        if (c.events.events.empty())
            return fail(QStringLiteral("%1 has no 802.11 events to zoom to").arg(capturePath));
        for (std::size_t e = 0; e < c.events.size(); ++e)
            if (std::to_string(c.events.at(e).id) == eventText)
                event = static_cast<int>(e);
        if (event < 0)
            return fail(QStringLiteral("no event '%1' in %2 (ids 0 to %3; see windscope-cli events)")
                            .arg(QString::fromStdString(eventText), capturePath)
                            .arg(c.events.size() - 1));
    }

    if (what == "series") {
        const analysis::ConnectionSeries series = seriesOf(connections.front().first, connections.front().second);
        if (!series.window.cwndNotFollowed.empty())
            std::fprintf(stderr, "windscope-cli export: connection %zu: cwnd not followed: %s\n",
                         connections.front().first, series.window.cwndNotFollowed.c_str());
        if (output.empty() || output == "-") {
            analysis::writeSeriesCsv(std::cout, series);
            return 0;
        }
        std::ofstream file(output);
        if (file)
            analysis::writeSeriesCsv(file, series);
        file.close();
        if (!file)
            return fail(QStringLiteral("%1: write failed").arg(out));
        return 0;
    }

    if (what == "figure") {
        render::FigureOptions request;
        request.plots = plots;
        request.preset = preset;
        request.range = timeRange;
        std::size_t connection = 0;
        int sender = -1;
        if (!connections.empty()) {
            connection = connections.front().first;
            sender = connections.front().second;
        } else {
            // --event alone: the connection the window would show it on.
            const int k = render::connectionForEvent(c, static_cast<std::size_t>(event));
            if (k < 0)
                return fail(QStringLiteral("event %1 touched no TCP connection; give --flow").arg(QString::fromStdString(eventText)));
            connection = static_cast<std::size_t>(k);
        }
        if (event >= 0) {
            const analysis::WlanEvent& e = c.events.at(static_cast<std::size_t>(event));
            request.range = render::eventRange(e);
            request.highlightedEvent = static_cast<long long>(e.id);
        }
        request.stevens = stevens;
        const render::ConnectionFigure figure(seriesOf(connection, sender), request);
        if (!figure.painter().emptyText().isEmpty())
            std::fprintf(stderr, "windscope-cli export: connection %zu: %s\n", connection,
                         qPrintable(figure.painter().emptyText()));
        if (!figure.write(out, &error))
            return fail(error);
        return 0;
    }

    render::ReportOptions options;
    options.plots = plots;
    options.preset = preset;
    options.eventFigures = eventFigures;
    options.paper = paper;
    for (const auto& [connection, sender] : connections)
        options.connections << static_cast<int>(connection);
    if (!render::writeReport(pipeline, options, out, &error))
        return fail(error);
    return 0;
}

} // namespace windscope::cli

#pragma once
// Quantities a user reads in labels, tooltips and the status bar, each in the unit that keeps it
// short and never rounds it to zero: a 70B training step on a T4 read "733166.4 ms", a one-token
// rate "0.0 k tokens/s" and a mask copy "0.00 MB moved".
#include <QString>

namespace gpuforecast::ui {

// Milliseconds below 10 s ("61.8 ms", decimals as asked, more below 100 ms to keep three figures:
// "0.150 ms", "5.30 ms"), then seconds to 10 minutes
// ("12.35 s"), minutes to 10 hours ("12.2 min"), hours beyond ("31.4 h").
QString formatMs(double ms, int msDecimals = 1);
// Three significant figures, thousands as k and millions as M: "0.0213 tokens/s", "812 tokens/s",
// "4567 tokens/s", "12.3 k tokens/s", "1.23 M tokens/s"; below 0.01 with a power of ten:
// "4.70 × 10⁻⁷ samples/s".
QString formatRate(double perSecond, const QString& unit);
// Decimal units, three significant figures: "512 B", "12.3 kB", "4.19 MB", "1.68 GB".
QString formatBytes(double bytes);
// Memory held or needed, in binary units as GPU memory is sold: "5.8 GiB", "684.0 GiB", and from
// 1024 GiB on three figures of TiB or PiB, "8.37 TiB" (a 70B training step "needed 8573.8 of 80 GiB").
QString formatGiB(double bytes);
// A number of GiB without its unit, for "32.4 of 80 GiB": whole as it is ("80"), one decimal from
// 1 ("1.5", "684.0"), three figures below ("0.00100": a 0.001 GB sheet held "0.0 GiB").
QString formatGiBAmount(double gib);

// Latency axes hold milliseconds; past 10 s their ticks read seconds (a 70B training step's axis
// read "3·10^6" ms), past three hours hours. The unit's name for the axis label, and what one of
// it is in milliseconds.
struct LatencyUnit {
    QString name;
    double ms = 1;
};
LatencyUnit latencyUnitFor(double largestMs);
// A latency in a given unit, for values read side by side (bar labels over one axis, a list of
// GPUs): "4563.7 ms" next to "34.10 s" made readers compare digits across units. Milliseconds as
// formatMs gives them; seconds as formatMs gives them ("4.56 s"), but to three figures below one
// ("0.00512 s") and whole from 1000 ("3600 s", which formatMs would write as 1.0 h). Below a
// thousandth of the unit, the value's own unit: beside a 1-GFLOP/s sheet's hours, an H100's
// 388.8 ms had read "0.000108 h".
QString formatLatencyIn(double ms, const LatencyUnit& unit, int msDecimals = 1);
// Milliseconds for a table column, which keeps one unit so rows compare and sort: six figures at
// most three decimals ("0.012", "123.456", "1234.57"), thousands apart by a thin space
// ("1 000 314", where a 70B training step had read "1000313.686").
QString formatTableMs(double ms);
// A speed-up, "1.37x": two decimals, three figures below 0.01 (one GPU ten thousand times slower
// than another read "0.00x") and whole from 100.
QString formatRatio(double ratio);

} // namespace gpuforecast::ui

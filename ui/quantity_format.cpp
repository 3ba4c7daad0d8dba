#include "quantity_format.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast::ui {

namespace {

// Three significant figures without an exponent: 0.0213, 4.19, 12.3, 812.
QString threeFigures(double v)
{
    if (v == 0 || !std::isfinite(v))
        return QString::number(v);
    // The decimals follow the rounded value: 0.9997 is "1.00", not "1.000".
    const double scale = std::pow(10.0, 2 - std::floor(std::log10(std::abs(v))));
    const double rounded = std::round(v * scale) / scale;
    const int magnitude = int(std::floor(std::log10(std::abs(rounded))));
    return QString::number(rounded, 'f', std::max(0, 2 - magnitude));
}

// Milliseconds with the decimals asked, and at least three figures: a tiny model's 0.150 ms
// read "0.2 ms" at one decimal, a third more than the bar it labelled.
QString millisecondsText(double ms, int msDecimals)
{
    const int figures = ms > 0 ? 2 - int(std::floor(std::log10(ms))) : 0;
    return QString("%1 ms").arg(ms, 0, 'f', std::clamp(figures, msDecimals, 6));
}

// "-7" as "⁻⁷", for powers of ten inside labels that cannot lift text.
QString superscript(int n)
{
    static const char16_t digits[] = u"\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
    QString text = n < 0 ? QString(QChar(u'\u207b')) : QString();
    for (const QChar c : QString::number(std::abs(n)))
        text += QChar(digits[c.digitValue()]);
    return text;
}

} // namespace

QString formatMs(double ms, int msDecimals)
{
    if (ms < 1e4)
        return millisecondsText(ms, msDecimals);
    const double s = ms / 1e3;
    if (s < 600)
        return QString("%1 s").arg(s, 0, 'f', 2);
    if (s < 36000)
        return QString("%1 min").arg(s / 60, 0, 'f', 1);
    return QString("%1 h").arg(s / 3600, 0, 'f', 1);
}

QString formatRate(double perSecond, const QString& unit)
{
    if (perSecond >= 1e6)
        return QString("%1 M %2").arg(threeFigures(perSecond / 1e6), unit);
    if (perSecond >= 1e4)
        return QString("%1 k %2").arg(threeFigures(perSecond / 1e3), unit);
    if (perSecond >= 100)
        return QString("%1 %2").arg(std::round(perSecond), 0, 'f', 0).arg(unit);
    if (perSecond >= 0.01 || perSecond <= 0 || !std::isfinite(perSecond))
        return QString("%1 %2").arg(threeFigures(perSecond), unit);
    // A 70B model's training step on a small card read "0.000000470 samples/s": past two zeros
    // the reader counts digits, so the power of ten is written out.
    int exponent = int(std::floor(std::log10(perSecond)));
    QString mantissa = threeFigures(perSecond / std::pow(10.0, exponent));
    if (mantissa == "10.0") { // 9.996e-5 rounds up into the next power
        mantissa = "1.00";
        ++exponent;
    }
    return QString("%1 \u00d7 10%2 %3").arg(mantissa, superscript(exponent), unit);
}

QString formatBytes(double bytes)
{
    static const char* const units[] = {"kB", "MB", "GB", "TB"};
    if (bytes < 1e3)
        return QString("%1 B").arg(bytes, 0, 'f', 0);
    double v = bytes / 1e3;
    int u = 0;
    while (v >= 999.5 && u < 3) { // 999.7 kB would print "1000 kB"
        v /= 1e3;
        ++u;
    }
    return QString("%1 %2").arg(threeFigures(v), units[u]);
}

QString formatGiB(double bytes)
{
    double v = bytes / (1024.0 * 1024.0 * 1024.0);
    if (v < 1024)
        return QString("%1 GiB").arg(v, 0, 'f', 1);
    v /= 1024;
    return v < 1024 ? QString("%1 TiB").arg(threeFigures(v)) : QString("%1 PiB").arg(threeFigures(v / 1024));
}

QString formatGiBAmount(double gib)
{
    if (gib == std::round(gib))
        return QString::number(gib, 'f', 0);
    return gib >= 1 ? QString::number(gib, 'f', 1) : threeFigures(gib);
}

LatencyUnit latencyUnitFor(double largestMs)
{
    // Past three hours, hours: a week-long step's bar read "226963 s".
    return largestMs < 1e4 ? LatencyUnit{"ms", 1} : largestMs < 1.08e7 ? LatencyUnit{"s", 1e3} : LatencyUnit{"h", 3.6e6};
}

QString formatLatencyIn(double ms, const LatencyUnit& unit, int msDecimals)
{
    if (unit.ms == 1)
        return millisecondsText(ms, msDecimals);
    const double v = ms / unit.ms;
    if (v < 1e-3 && ms > 0 && latencyUnitFor(ms).ms < unit.ms)
        return formatLatencyIn(ms, latencyUnitFor(ms), msDecimals);
    // As formatMs writes seconds, but never rounded to zero, nor to a hundredth of an hour.
    return QString("%1 %2").arg(v < 1 ? threeFigures(v) : QString::number(v, 'f', v < 1000 ? 2 : 0), unit.name);
}

QString formatTableMs(double ms)
{
    if (!std::isfinite(ms))
        return QString::number(ms);
    const int decimals = ms > 0 ? std::clamp(5 - int(std::floor(std::log10(ms))), 0, 3) : 3;
    QString text = QString::number(ms, 'f', decimals);
    const qsizetype point = text.indexOf('.');
    // A thin space, not the locale's comma: every other number in the window uses '.' for the
    // decimal point, and a comma beside it would read as one in some locales.
    for (qsizetype i = (point < 0 ? text.size() : point) - 3; i > 0; i -= 3)
        text.insert(i, QChar(u'\u2009'));
    return text;
}

QString formatRatio(double ratio)
{
    if (!std::isfinite(ratio) || ratio <= 0)
        return QString("%1x").arg(ratio);
    if (ratio < 0.01)
        return threeFigures(ratio) + 'x';
    return QString("%1x").arg(ratio, 0, 'f', ratio < 100 ? 2 : 0);
}

} // namespace gpuforecast::ui

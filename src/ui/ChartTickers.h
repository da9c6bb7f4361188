#pragma once

// Axis tickers for QCustomPlot charts. Include after ui/QCustomPlotHeader.h, from .cpp files only.

#include "keyspace/Units.h"
#include "models/DisplayText.h"

#include <cmath>

namespace keylens::ui {

// Axis labels in the units the rest of the window uses: "1.2 MiB", not 1258291.
class ByteTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        return tick < 0 ? QString() : models::displayText(keyspace::formatBytes(std::uint64_t(std::llround(tick))));
    }
};

class ByteLogTicker : public QCPAxisTickerLog
{
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        return models::displayText(keyspace::formatBytes(std::uint64_t(std::llround(tick))));
    }
};

class CountTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        return tick < 0 || tick != std::floor(tick) ? QString()
                                                    : models::displayText(keyspace::formatCount(std::uint64_t(tick)));
    }
};

} // namespace keylens::ui

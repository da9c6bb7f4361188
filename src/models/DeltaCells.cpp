#include "models/DeltaCells.h"

#include "keyspace/Units.h"
#include "models/DisplayText.h"

#include <QCoreApplication>

#include <cstdlib>

namespace keylens::models {

namespace {

constexpr QChar Minus(0x2212); // a true minus sign: as wide as the plus, so the figures line up

QString signedOf(std::int64_t delta, const QByteArray& magnitude)
{
    if (delta == 0)
        return displayText(magnitude);
    return (delta > 0 ? QStringLiteral("+") : QString(Minus)) + displayText(magnitude);
}

std::uint64_t magnitudeOf(std::int64_t delta)
{
    return delta < 0 ? std::uint64_t(0) - std::uint64_t(delta) : std::uint64_t(delta);
}

QString tr(const char* text)
{
    return QCoreApplication::translate("DeltaCells", text);
}

} // namespace

QString signedCount(std::int64_t delta)
{
    return signedOf(delta, keyspace::formatCount(magnitudeOf(delta)));
}

QString signedBytes(std::int64_t delta)
{
    return signedOf(delta, keyspace::formatBytes(magnitudeOf(delta)));
}

QString growthPercent(std::uint64_t before, std::uint64_t after)
{
    if (before == 0)
        return {};
    const double percent = (double(after) - double(before)) * 100.0 / double(before);
    const QString figure = QString::number(std::abs(percent), 'f', std::abs(percent) < 10 ? 1 : 0) + u'%';
    return (percent >= 0 ? QStringLiteral("+") : QString(Minus)) + figure;
}

QString deltaText(const RowDelta& delta, DeltaColumn column)
{
    const bool keys = column == DeltaColumn::Keys;
    switch (delta.kind) {
    case RowDelta::Unknown:
        return {};
    case RowDelta::Pending:
        return QStringLiteral("…");
    case RowDelta::New:
        // New rows say so first: a growth from nothing has no percentage to read.
        if (keys)
            return tr("new") + u' ' + signedCount(delta.keysDelta());
        return delta.memoryCompared ? signedBytes(delta.memoryDelta()) : QStringLiteral("–");
    case RowDelta::Gone:
    case RowDelta::Compared:
        if (keys)
            return signedCount(delta.keysDelta());
        return delta.memoryCompared ? signedBytes(delta.memoryDelta()) : QStringLiteral("–");
    }
    return {};
}

QString deltaToolTip(const RowDelta& delta, DeltaColumn column, const QString& label)
{
    Q_UNUSED(column);
    const auto keys = [](std::uint64_t count) { return displayText(keyspace::formatCount(count)); };
    const auto bytes = [](std::uint64_t count) { return displayText(keyspace::formatBytes(count)); };
    switch (delta.kind) {
    case RowDelta::Unknown:
        return tr("The scan of %1 did not list this row on its own: its snapshot keeps the biggest namespaces down "
                  "to a few levels, and counts a key by its pattern (this one's had many keys).")
            .arg(label);
    case RowDelta::Pending:
        return tr("Compared with the scan of %1 once this scan ends: until then its figures are partial.").arg(label);
    case RowDelta::New:
        return tr("New since the scan of %1: %2 keys, %3.").arg(label, keys(delta.keysNow), bytes(delta.memoryNow));
    case RowDelta::Gone:
        return tr("Gone since the scan of %1, which found %2 keys, %3 here.")
            .arg(label, keys(delta.keysBefore), bytes(delta.memoryBefore));
    case RowDelta::Compared:
        break;
    }
    QString text = tr("Since the scan of %1: keys %2 → %3 (%4)")
                       .arg(label, keys(delta.keysBefore), keys(delta.keysNow), signedCount(delta.keysDelta()));
    if (!delta.memoryCompared)
        return text + u'\n' +
               tr("Memory not compared: one of the two scans did not measure every key (MEMORY USAGE denied, skipped "
                  "or sampled).");
    text += u'\n' + tr("memory %1 → %2 (%3)")
                        .arg(bytes(delta.memoryBefore), bytes(delta.memoryNow), signedBytes(delta.memoryDelta()));
    if (const QString percent = growthPercent(delta.memoryBefore, delta.memoryNow); !percent.isEmpty())
        text += QStringLiteral(", ") + percent;
    return text;
}

QString deltaSummary(const RowDelta& delta, const QString& label)
{
    switch (delta.kind) {
    case RowDelta::Unknown:
        return tr("not listed in the snapshot of %1 (it keeps the biggest namespaces, a few levels deep, and counts "
                  "keys by pattern)")
            .arg(label);
    case RowDelta::Pending:
        return tr("compared with %1 once the scan ends").arg(label);
    case RowDelta::New:
        return tr("new since %1").arg(label);
    case RowDelta::Gone:
        return tr("gone since %1").arg(label);
    case RowDelta::Compared:
        break;
    }
    QString keys = tr("%1 keys").arg(signedCount(delta.keysDelta()));
    if (const QString percent = growthPercent(delta.keysBefore, delta.keysNow); !percent.isEmpty() && delta.keysDelta())
        keys += QStringLiteral(" (%1)").arg(percent);
    QString memory = tr("memory not compared");
    if (delta.memoryCompared) {
        memory = signedBytes(delta.memoryDelta());
        if (const QString percent = growthPercent(delta.memoryBefore, delta.memoryNow);
            !percent.isEmpty() && delta.memoryDelta())
            memory += QStringLiteral(" (%1)").arg(percent);
    }
    return tr("%1, %2 since %3").arg(keys, memory, label);
}

SortEntry deltaSortEntry(const RowDelta& delta, DeltaColumn column)
{
    if (delta.kind == RowDelta::Unknown || delta.kind == RowDelta::Pending)
        return {0, 0, 1}; // after every compared row, in both orders (the rank is not inverted)
    const std::int64_t change = column == DeltaColumn::Keys ? delta.keysDelta() : delta.memoryDelta();
    // By how much it changed, either way: a namespace that lost 371 KiB matters more than one that did not change
    // (keylens-cli diff orders its changes so too).
    return {change < 0 ? std::uint64_t(0) - std::uint64_t(change) : std::uint64_t(change), 0, 0};
}

int deltaSign(const RowDelta& delta, DeltaColumn column)
{
    switch (delta.kind) {
    case RowDelta::Unknown:
    case RowDelta::Pending:
        return 0;
    case RowDelta::New:
        return 1;
    case RowDelta::Gone:
        return -1;
    case RowDelta::Compared:
        break;
    }
    if (column == DeltaColumn::Memory && !delta.memoryCompared)
        return 0;
    const std::int64_t change = column == DeltaColumn::Keys ? delta.keysDelta() : delta.memoryDelta();
    return change > 0 ? 1 : change < 0 ? -1 : 0;
}

} // namespace keylens::models

#pragma once

#include "models/RowDelta.h"
#include "models/SortKeys.h"

#include <QString>
#include <QVariant>

namespace keylens::models {

// The Δ Keys and Δ Memory cells of a row compared with an earlier scan (Comparison.h): what they say, how they
// sort (biggest growth first when descending; rows the earlier scan did not list last either way) and which way
// they went, for the colour the delegate gives them.
enum class DeltaColumn { Keys, Memory };

QString deltaText(const RowDelta& delta, DeltaColumn column);
// `label` names the earlier scan ("5 Dec 23:48").
QString deltaToolTip(const RowDelta& delta, DeltaColumn column, const QString& label);
SortEntry deltaSortEntry(const RowDelta& delta, DeltaColumn column);

// One line for the details pane: "+10,000 keys, +1.2 MB (+35%) since 5 Dec 23:48", "new since …", or why there is
// no figure.
QString deltaSummary(const RowDelta& delta, const QString& label);

// +1 grew, -1 shrank, 0 the same or not compared; New and Gone rows say +1 and -1.
int deltaSign(const RowDelta& delta, DeltaColumn column);

// "+10,000", "−3", "0"; "+1.2 MB", "−640 B"; the growth of `before` to `after` in percent ("+35%"), or empty.
QString signedCount(std::int64_t delta);
QString signedBytes(std::int64_t delta);
QString growthPercent(std::uint64_t before, std::uint64_t after);

} // namespace keylens::models

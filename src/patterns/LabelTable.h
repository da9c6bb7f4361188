#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <deque>
#include <string_view>
#include <unordered_map>

namespace keylens::patterns {

// Pattern labels interned: an id per distinct label, found again from a view without allocating (the map's keys
// view the deque's bytes, which never move). The live pattern tree and the findings' groups key children by
// (parent, label id).
class LabelTable
{
public:
    std::uint32_t idOf(QByteArrayView label);
    const QByteArray& label(std::uint32_t id) const { return m_labels[id]; }

private:
    std::deque<QByteArray> m_labels;
    std::unordered_map<std::string_view, std::uint32_t> m_ids;
};

} // namespace keylens::patterns

#include "patterns/LabelTable.h"

namespace keylens::patterns {

std::uint32_t LabelTable::idOf(QByteArrayView label)
{
    const std::string_view view(label.data(), std::size_t(label.size()));
    if (const auto it = m_ids.find(view); it != m_ids.end())
        return it->second;
    const QByteArray& kept = m_labels.emplace_back(label.toByteArray());
    const auto id = std::uint32_t(m_labels.size() - 1);
    m_ids.emplace(std::string_view(kept.constData(), std::size_t(kept.size())), id);
    return id;
}

} // namespace keylens::patterns

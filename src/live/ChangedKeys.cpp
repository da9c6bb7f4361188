#include "live/ChangedKeys.h"

namespace keylens::live {

void ChangedKeys::add(QByteArrayView key, KeyEvent event)
{
    auto it = m_keys.find(key.toByteArray());
    if (it == m_keys.end()) {
        if (std::size_t(m_keys.size()) >= m_maxKeys) {
            m_overflowed = true;
            return;
        }
        it = m_keys.insert(key.toByteArray(), {});
    }
    it->last = event;
    if (event == KeyEvent::Write || event == KeyEvent::Delete)
        ++it->writes;
}

std::vector<KeyChange> ChangedKeys::take()
{
    std::vector<KeyChange> out;
    out.reserve(std::size_t(m_keys.size()));
    for (auto it = m_keys.cbegin(); it != m_keys.cend(); ++it)
        out.push_back({it.key(), it->last, it->writes});
    m_keys.clear();
    return out;
}

} // namespace keylens::live

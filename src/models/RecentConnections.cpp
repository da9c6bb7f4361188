#include "models/RecentConnections.h"

#include "models/ConnectionTarget.h"
#include "models/SavedConnections.h"
#include "models/TransportSettings.h"

#include <QSettings>

#include <algorithm>

namespace keylens::models {

RecentConnections::RecentConnections(QSettings* settings)
    : m_settings(settings)
{
    const int count = settings->beginReadArray(QStringLiteral("recent"));
    for (int i = 0; i < count; ++i) {
        settings->setArrayIndex(i);
        RecentConnection entry{settings->value(QStringLiteral("name")).toString(),
                               settings->value(QStringLiteral("uri")).toString(),
                               settings->value(QStringLiteral("savedId")).toString(),
                               readTlsSettings(*settings),
                               readSshSettings(*settings),
                               settings->value(QStringLiteral("readOnly"), false).toBool()};
        if (!entry.uri.isEmpty() || !entry.savedId.isEmpty())
            m_list.push_back(std::move(entry));
    }
    settings->endArray();
}

void RecentConnections::remember(const RecentConnection& connection)
{
    // Every finished scan remembers its server: the same one again writes nothing (a settings file written to a
    // slow disk held the GUI thread for a third of a second after each rescan).
    if (!m_list.empty() && m_list.front() == connection)
        return;
    const auto same = [&connection](const RecentConnection& entry) {
        return connection.savedId.isEmpty() ? entry.savedId.isEmpty() && entry.uri == connection.uri
                                            : entry.savedId == connection.savedId;
    };
    m_list.erase(std::remove_if(m_list.begin(), m_list.end(), same), m_list.end());
    m_list.insert(m_list.begin(), connection);
    if (m_list.size() > Kept)
        m_list.resize(Kept);
    m_settings->remove(QStringLiteral("recent"));
    m_settings->beginWriteArray(QStringLiteral("recent"), int(m_list.size()));
    for (std::size_t i = 0; i < m_list.size(); ++i) {
        m_settings->setArrayIndex(int(i));
        m_settings->setValue(QStringLiteral("name"), m_list[i].name);
        m_settings->setValue(QStringLiteral("uri"), m_list[i].uri);
        m_settings->setValue(QStringLiteral("savedId"), m_list[i].savedId);
        m_settings->setValue(QStringLiteral("readOnly"), m_list[i].readOnly);
        writeTlsSettings(*m_settings, m_list[i].tls);
        writeSshSettings(*m_settings, m_list[i].ssh);
    }
    m_settings->endArray();
}

std::vector<ConnectionProfile> RecentConnections::unsavedProfiles() const
{
    std::vector<ConnectionProfile> profiles;
    for (const RecentConnection& recent : m_list) {
        if (!recent.savedId.isEmpty())
            continue; // listed among the saved connections already
        if (const redis::Result<ConnectionTarget> target = ConnectionTarget::fromRecent(recent)) {
            profiles.push_back(target->toProfile());
            profiles.back().name = recent.name;
        }
    }
    return profiles;
}

} // namespace keylens::models

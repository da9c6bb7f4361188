#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace keylens::test {

// Starts the keylens GUI binary offscreen, with its settings in `configDir` (not the user's).
inline void startGui(QProcess& process, const QStringList& arguments, const QString& configDir)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), configDir);
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(KEYLENS_GUI_PATH), arguments);
}

} // namespace keylens::test

#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtDebug>

namespace keylens::test {

// A report keylens-cli printed as JSON; an empty object, and a warning with the parser's reason and the first bytes,
// when it is not JSON (so that the test's own checks then fail on the missing fields).
inline QJsonObject parseJson(const QByteArray& document)
{
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(document, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("invalid JSON: %s: %s", qPrintable(error.errorString()), document.left(300).constData());
    return json.object();
}

} // namespace keylens::test

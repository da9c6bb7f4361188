#pragma once

#include <QCoreApplication>
#include <QSize>
#include <QString>
#include <QWidget>

namespace keylens::test {

// With KEYLENS_GRAB_DIR set, saves pictures of the window there at 800x600 and 1600x1000 (NAME-800.png, NAME-1600.png)
// and gives it back its size: to look at what a test checks, under xvfb (QT_QPA_PLATFORM=xcb) or offscreen.
inline void grabAtSizes(QWidget* window, const QString& name)
{
    const QString dir = qEnvironmentVariable("KEYLENS_GRAB_DIR");
    if (dir.isEmpty())
        return;
    const QSize size = window->size();
    for (const QSize shown : {QSize(800, 600), QSize(1600, 1000)}) {
        window->resize(shown);
        for (int i = 0; i < 5; ++i) // layouts settle over a few turns (splitters, column fitting)
            QCoreApplication::processEvents();
        window->grab().save(dir + u'/' + name + u'-' + QString::number(shown.width()) + QStringLiteral(".png"));
    }
    window->resize(size);
    QCoreApplication::processEvents();
}

} // namespace keylens::test

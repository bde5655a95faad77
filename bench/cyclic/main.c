// SPDX-License-Identifier: GPL-2.0-or-later
#include "cyclic.h"

int main(int argc, char **argv)
{
	return cyclic_main(argc, argv);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "load.h"

int main(int argc, char **argv)
{
	return load_main(argc, argv);
}

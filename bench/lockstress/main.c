// SPDX-License-Identifier: GPL-2.0-or-later
#include "lockstress.h"

int main(int argc, char **argv)
{
	return lockstress_main(argc, argv);
}

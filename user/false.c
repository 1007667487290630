/* false: do nothing, unsuccessfully. */

/* Exit status 1. */
int main(void)
{
	return 1;
}

net Unnamed
{
	node 2
	{
		TYPE = CPT;
		HEADER =
		{
			ID = 2;
			NAME = "2";
		};
		PARENTS = ();
		DEFINITION =
		{
			NAMESTATES = (0, 1);
			PROBABILITIES = (0.25, 0.75);
		};
	};

	node 7
	{
		TYPE = CPT;
		HEADER =
		{
			ID = 7;
			NAME = "7";
		};
		PARENTS = (2);
		DEFINITION =
		{
			NAMESTATES = (0, 1, 2);
			PROBABILITIES = (0.5, 0.5, 0, 0.2, 0.3, 0.5);
		};
	};

};